package report

import (
	"testing"
)

// TestSketchRoundsDown: a latency's bin stands for it rounded down to the sketch's significant
// digits, bins are in order of value, and quantiles are those of the rounded latencies.
func TestSketchRoundsDown(t *testing.T) {
	for _, fine := range []bool{false, true} {
		s := sketch{fine: fine}
		digits := map[bool]int64{false: 100, true: 1000}[fine]
		prev := -1
		for _, v := range []int64{0, 7, 99, 100, 101, 999, 1000, 1234, 9999, 10000, 123456, 98765432} {
			want, p := v, int64(1)
			for want/p >= digits {
				p *= 10
			}
			want = want / p * p
			i := s.index(v)
			if got := s.value(i); got != want {
				t.Errorf("fine=%v: %d us is in the bin of %d us, want %d", fine, v, got, want)
			}
			if i < prev {
				t.Errorf("fine=%v: bin %d of %d us comes before %d", fine, i, v, prev)
			}
			prev = i
		}
	}
	s := sketch{fine: true}
	for v := 1; v <= 10000; v++ {
		s.add(float64(v) / 1000)
	}
	q := s.quantiles(0.5, 0.99, 1)
	if q[0] != 5 || q[1] != 9.9 || q[2] != 10 {
		t.Fatalf("quantiles of 1..10000 us: %v ms", q)
	}
	var m sketch
	m.merge(&sketch{})
	if m.quantiles(0.5)[0] != 0 {
		t.Fatal("empty sketch has a median")
	}
}
