package ops

// DefaultPatterns are the key patterns inspect scans when none is given: the seed's Redlock keys
// and upstream's plain init leases.
var DefaultPatterns = []string{"redlock:*", "analysis:*:init_lock"}

// Match reports whether key matches the Redis glob pattern as SCAN MATCH does: * and ? match any
// bytes (including ':' and '/'), [abc], [^a], [a-z] classes, and \ escapes the next byte.
func Match(pattern, key string) bool {
	p, s := 0, 0
	starP, starS := -1, 0
	for s < len(key) {
		if p < len(pattern) {
			switch pattern[p] {
			case '*':
				starP, starS = p, s
				p++
				continue
			case '?':
				p++
				s++
				continue
			case '[':
				if np, ok := matchClass(pattern, p, key[s]); ok {
					p = np
					s++
					continue
				}
			case '\\':
				if p+1 < len(pattern) && pattern[p+1] == key[s] {
					p += 2
					s++
					continue
				}
			default:
				if pattern[p] == key[s] {
					p++
					s++
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		starS++
		p, s = starP+1, starS
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// matchClass matches c against the class starting at pattern[p] == '['. It returns the index
// after the class and whether c is in it.
func matchClass(pattern string, p int, c byte) (int, bool) {
	p++
	negate := p < len(pattern) && pattern[p] == '^'
	if negate {
		p++
	}
	in := false
	for p < len(pattern) && pattern[p] != ']' {
		switch {
		case pattern[p] == '\\' && p+1 < len(pattern):
			p++
			if pattern[p] == c {
				in = true
			}
			p++
		case p+2 < len(pattern) && pattern[p+1] == '-' && pattern[p+2] != ']':
			lo, hi := pattern[p], pattern[p+2]
			if lo > hi {
				lo, hi = hi, lo
			}
			if lo <= c && c <= hi {
				in = true
			}
			p += 3
		default:
			if pattern[p] == c {
				in = true
			}
			p++
		}
	}
	if p < len(pattern) {
		p++ // the closing ]
	}
	return p, in != negate
}
