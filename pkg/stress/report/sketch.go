package report

import (
	"math"
	"time"
)

// sketch counts latencies in microseconds rounded down to a few significant digits, in bins kept
// in a slice in order of value: the quantiles of any number of latencies in memory bounded by how
// many distinct such values lie below the slowest (three digits: at most 900 a decade; two: 90).
type sketch struct {
	n    int64
	fine bool // three significant digits, else two
	bins []int64
}

// add counts one latency, in milliseconds.
func (s *sketch) add(ms float64) {
	i := s.index(int64(ms * float64(time.Millisecond/time.Microsecond)))
	if i >= len(s.bins) {
		s.bins = append(s.bins, make([]int64, i+1-len(s.bins))...)
	}
	s.bins[i]++
	s.n++
}

// merge adds o's counts, which are to as many digits.
func (s *sketch) merge(o *sketch) {
	if len(o.bins) > len(s.bins) {
		s.bins = append(s.bins, make([]int64, len(o.bins)-len(s.bins))...)
	}
	for i, n := range o.bins {
		s.bins[i] += n
	}
	s.n += o.n
}

// quantiles are the nearest-rank quantiles qs (in milliseconds; 0 when there are none).
func (s *sketch) quantiles(qs ...float64) []float64 {
	out := make([]float64, len(qs))
	if s.n == 0 {
		return out
	}
	for i, q := range qs {
		rank := max(int64(math.Ceil(q*float64(s.n))), 1)
		var seen int64
		for k, n := range s.bins {
			if seen += n; seen >= rank {
				out[i] = float64(s.value(k)) / 1000
				break
			}
		}
	}
	return out
}

// base is 10 to the power of the sketch's significant digits.
func (s *sketch) base() int64 {
	if s.fine {
		return 1000
	}
	return 100
}

// index is the bin of v microseconds: v itself below base, and past it, base/10*9 bins a decade,
// one for each leading base/10..base-1 of v rounded down.
func (s *sketch) index(v int64) int {
	base := s.base()
	if v < base {
		return int(max(v, 0))
	}
	decade, p := int64(0), int64(1)
	for v/p >= base {
		p *= 10
		decade++
	}
	return int(base + (decade-1)*(base-base/10) + (v/p - base/10))
}

// value is the latency in microseconds bin i stands for: the least one it counts.
func (s *sketch) value(i int) int64 {
	base := s.base()
	if int64(i) < base {
		return int64(i)
	}
	k, width := int64(i)-base, base-base/10
	v := k%width + base/10
	for d := k/width + 1; d > 0; d-- {
		v *= 10
	}
	return v
}
