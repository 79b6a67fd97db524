package attack

import (
	"time"
)

// Replay rebuilds the statistics of finished requests recorded elsewhere (a run's history), as a
// Replayer fed them in order. outs are the requests' outcomes, in order.
func Replay(rs []Result, outs []Outcome) *Stats {
	p := NewReplayer()
	for i := range rs {
		p.Add(&rs[i], outs[i])
	}
	return p.Stats()
}

// Replayer rebuilds the statistics of finished requests fed to it one at a time, in memory that
// does not grow with their number: the counts, latency histogram and first error as the attacker
// keeps them, the span from the first start to the last end, and the requests in flight (at most
// maxFlightSlices samples, each the most in flight at the edges of its slice, and the peak of
// those) from the requests' own start and end times.
type Replayer struct {
	s           *Stats
	n           int
	first, last time.Time
	fl          flightSlices
}

// NewReplayer returns an empty Replayer.
func NewReplayer() *Replayer { return &Replayer{s: newStats(time.Time{})} }

// Add counts one finished request.
func (p *Replayer) Add(r *Result, out Outcome) {
	p.s.record(p.n, r, out)
	p.n++
	if r.Start.IsZero() || r.End.IsZero() {
		return
	}
	if p.first.IsZero() || r.Start.Before(p.first) {
		p.first = r.Start
	}
	if r.End.After(p.last) {
		p.last = r.End
	}
	p.fl.add(r.Start, 1)
	p.fl.add(r.End, -1)
}

// Stats are the statistics of the requests added so far (the Replayer's own: add no more to it
// once they are used).
func (p *Replayer) Stats() *Stats {
	s := p.s
	s.Began, s.Ended = p.first, p.last
	s.mu.Lock()
	s.samples = p.fl.samples()
	var peak int64
	for _, x := range s.samples {
		peak = max(peak, x.InFlight)
	}
	s.mu.Unlock()
	s.peak.Store(peak)
	return s
}

// maxFlightSlices bounds a Replayer's in-flight slices: when an event falls past the last, the
// slices double in width, pairs merged.
const maxFlightSlices = 512

// flightSlices counts, per slice of time from the first event, the requests that started and
// ended in it: the requests in flight at each slice's edge are the running sum.
type flightSlices struct {
	origin time.Time
	step   time.Duration
	delta  []int64
	last   int // the last slice with an event
}

func (f *flightSlices) add(t time.Time, d int64) {
	if f.step == 0 {
		f.origin, f.step, f.delta = t, time.Millisecond, make([]int64, maxFlightSlices)
	}
	i := 0
	if t.After(f.origin) {
		i = int(t.Sub(f.origin) / f.step)
	}
	for i >= maxFlightSlices {
		for k := 0; k < maxFlightSlices/2; k++ {
			f.delta[k] = f.delta[2*k] + f.delta[2*k+1]
		}
		clear(f.delta[maxFlightSlices/2:])
		f.step *= 2
		i /= 2
		f.last /= 2
	}
	f.delta[i] += d
	f.last = max(f.last, i)
}

// samples are the requests in flight per slice, up to the last slice with an event: the most of
// those open at its start and at its end.
func (f *flightSlices) samples() []Sample {
	if f.step == 0 {
		return nil
	}
	var out []Sample
	var open int64
	for i := 0; i <= f.last; i++ {
		before := open
		open += f.delta[i]
		out = append(out, Sample{At: f.origin.Add(time.Duration(i+1) * f.step), InFlight: max(before, open)})
	}
	return out
}
