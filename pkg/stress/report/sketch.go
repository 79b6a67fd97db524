package report

import (
	"math"
	"sort"
	"time"
)

// sketch counts latencies in microseconds rounded down to three significant digits: the
// quantiles of any number of them in memory bounded by how many distinct such values there are.
type sketch struct {
	n    int64
	bins map[int64]int64
}

// add counts one latency, in milliseconds.
func (s *sketch) add(ms float64) {
	if s.bins == nil {
		s.bins = map[int64]int64{}
	}
	s.bins[round3(int64(ms*float64(time.Millisecond/time.Microsecond)))]++
	s.n++
}

func (s *sketch) merge(o *sketch) {
	for k, n := range o.bins {
		if s.bins == nil {
			s.bins = map[int64]int64{}
		}
		s.bins[k] += n
	}
	s.n += o.n
}

// quantiles are the nearest-rank quantiles qs (in milliseconds; 0 when there are none).
func (s *sketch) quantiles(qs ...float64) []float64 {
	out := make([]float64, len(qs))
	if s.n == 0 {
		return out
	}
	keys := make([]int64, 0, len(s.bins))
	for k := range s.bins {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return keys[a] < keys[b] })
	for i, q := range qs {
		rank := max(int64(math.Ceil(q*float64(s.n))), 1)
		var seen int64
		for _, k := range keys {
			if seen += s.bins[k]; seen >= rank {
				out[i] = float64(k) / 1000
				break
			}
		}
	}
	return out
}

// round3 rounds v down to three significant digits.
func round3(v int64) int64 {
	if v < 1000 {
		return max(v, 0)
	}
	p := int64(1)
	for v/p >= 1000 {
		p *= 10
	}
	return v / p * p
}
