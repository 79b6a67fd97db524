package attack

import (
	"sort"
	"time"
)

// Replay rebuilds the statistics of finished requests recorded elsewhere (a run's history): the
// counts, latency histogram and first error as the attacker keeps them, and the requests in
// flight (about 200 samples, each the most in flight during its slice, and the peak) from the
// requests' own start and end times. outs are the requests' outcomes, in order.
func Replay(rs []Result, outs []Outcome) *Stats {
	var first, last time.Time
	for i := range rs {
		if rs[i].Start.IsZero() || rs[i].End.IsZero() {
			continue
		}
		if first.IsZero() || rs[i].Start.Before(first) {
			first = rs[i].Start
		}
		if rs[i].End.After(last) {
			last = rs[i].End
		}
	}
	s := newStats(first)
	for i := range rs {
		s.record(i, &rs[i], outs[i])
	}
	s.finish(last)
	var peak int64
	s.samples, peak = flight(rs, first, last)
	s.peak.Store(peak)
	return s
}

// flight turns request start and end times into about 200 samples of requests in flight and the
// peak.
func flight(rs []Result, first, last time.Time) ([]Sample, int64) {
	type ev struct {
		t time.Time
		d int64
	}
	evs := make([]ev, 0, 2*len(rs))
	for i := range rs {
		if !rs[i].Start.IsZero() && !rs[i].End.IsZero() {
			evs = append(evs, ev{rs[i].Start, 1}, ev{rs[i].End, -1})
		}
	}
	if len(evs) == 0 {
		return nil, 0
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].t.Equal(evs[j].t) {
			return evs[i].d < evs[j].d // an end before a start at one instant
		}
		return evs[i].t.Before(evs[j].t)
	})
	step := last.Sub(first) / 200
	if step <= 0 {
		step = time.Millisecond
	}
	var out []Sample
	var cur, most, slice int64
	next := first.Add(step)
	for _, e := range evs {
		for !e.t.Before(next) {
			out = append(out, Sample{At: next, InFlight: slice})
			slice = cur
			next = next.Add(step)
		}
		cur += e.d
		slice = max(slice, cur)
		most = max(most, cur)
	}
	out = append(out, Sample{At: next, InFlight: slice})
	return out, most
}
