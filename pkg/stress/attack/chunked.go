package attack

import (
	"bytes"
	"errors"
)

// chunkState follows a chunked body as its bytes arrive, without keeping them: the event loop
// judges answers by their status and headers, and only needs to know where the body ends.
type chunkState struct {
	state int
	left  int64  // data bytes left in the current chunk
	line  []byte // a size or trailer line split across reads
}

const (
	chunkSize    = iota // reading a chunk-size line
	chunkData           // reading chunk data
	chunkDataEnd        // reading the line end after chunk data
	chunkTrailer        // reading trailer lines up to the empty one
)

// maxChunkLine bounds a chunk-size or trailer line.
const maxChunkLine = 4 << 10

var errChunked = errors.New("malformed chunked encoding in the response")

// consume takes the next bytes of the body and returns how many of them belong to it and
// whether the body ended there.
func (c *chunkState) consume(b []byte) (used int, done bool, err error) {
	for used < len(b) {
		if c.state == chunkData {
			k := min(int64(len(b)-used), c.left)
			used += int(k)
			if c.left -= k; c.left == 0 {
				c.state = chunkDataEnd
			}
			continue
		}
		i := bytes.IndexByte(b[used:], '\n')
		if i < 0 {
			if c.line = append(c.line, b[used:]...); len(c.line) > maxChunkLine {
				return len(b), false, errChunked
			}
			return len(b), false, nil
		}
		line := b[used : used+i]
		if len(c.line) > 0 {
			c.line = append(c.line, line...)
			line = c.line
		}
		used += i + 1
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch c.state {
		case chunkSize:
			if j := bytes.IndexByte(line, ';'); j >= 0 {
				line = line[:j]
			}
			n, ok := parseHex(bytes.Trim(line, " \t"))
			switch {
			case !ok:
				return used, false, errChunked
			case n == 0:
				c.state = chunkTrailer
			default:
				c.state, c.left = chunkData, n
			}
		case chunkDataEnd:
			if len(line) != 0 {
				return used, false, errChunked
			}
			c.state = chunkSize
		case chunkTrailer:
			if len(line) == 0 {
				c.line = c.line[:0]
				return used, true, nil
			}
		}
		c.line = c.line[:0]
	}
	return used, false, nil
}

// parseHex parses a chunk size: 1 to 15 hexadecimal digits.
func parseHex(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			n = n<<4 | int64(c-'0')
		case c >= 'a' && c <= 'f':
			n = n<<4 | int64(c-'a'+10)
		case c >= 'A' && c <= 'F':
			n = n<<4 | int64(c-'A'+10)
		default:
			return 0, false
		}
	}
	return n, true
}
