package stress

import (
	"sort"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
)

// flightEvent is a request starting (+1) or ending (-1).
type flightEvent struct {
	t time.Time
	d int64
}

// timeline turns request start and end events into about 200 samples of requests in flight
// (each sample the most in flight during its slice), and the peak.
func timeline(evs []flightEvent, first, last time.Time) ([]attack.Sample, int64) {
	if len(evs) == 0 {
		return nil, 0
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].t.Equal(evs[j].t) {
			return evs[i].d < evs[j].d
		}
		return evs[i].t.Before(evs[j].t)
	})
	step := last.Sub(first) / 200
	if step <= 0 {
		step = time.Millisecond
	}
	var out []attack.Sample
	var cur, peak, slicePeak int64
	next := first.Add(step)
	for _, e := range evs {
		for !e.t.Before(next) {
			out = append(out, attack.Sample{At: next, InFlight: slicePeak})
			slicePeak = cur
			next = next.Add(step)
		}
		cur += e.d
		slicePeak = max(slicePeak, cur)
		peak = max(peak, cur)
	}
	out = append(out, attack.Sample{At: next, InFlight: slicePeak})
	return out, peak
}
