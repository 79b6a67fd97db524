package profile

// Shard is one load worker's part of a load spread over Count workers (osctl stress --workers):
// the load requests whose index i in the whole load has i % Count == Index. Each request is made
// from its index in the whole load (its operation, analysis, target, seq and nonce), so the union
// of the shards is the load one process would send, and seqs, nonces and the ids made from them
// are unique across the workers. The zero Shard is the whole load.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

func (s Shard) count() int64 {
	if s.Count < 1 {
		return 1
	}
	return int64(s.Count)
}

// Global is the index in the whole load of the shard's j-th request.
func (s Shard) Global(j int64) int64 { return int64(s.Index) + j*s.count() }

// Len is how many of a load of n requests are the shard's.
func (s Shard) Len(n int64) int64 {
	if n <= int64(s.Index) {
		return 0
	}
	return (n - int64(s.Index) + s.count() - 1) / s.count()
}

// Split is the shard's part of a total spread over the workers: total/Count each, the remainder
// one more each to the lowest indexes.
func (s Shard) Split(total int) int {
	c := int(s.count())
	n := total / c
	if s.Index < total%c {
		n++
	}
	return n
}
