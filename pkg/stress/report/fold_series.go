package report

import (
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// foldSteps are the widths a folded series' buckets go through as the load goes on, each a
// whole multiple of the one before, so that buckets merge into wider ones.
var foldSteps = []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond,
	time.Second, 2 * time.Second, 10 * time.Second, 20 * time.Second, time.Minute, 2 * time.Minute, 10 * time.Minute,
	20 * time.Minute, time.Hour, 2 * time.Hour, 10 * time.Hour, 20 * time.Hour, 100 * time.Hour}

// foldSeries is the load over time in at most maxBuckets buckets from began: when a request ends
// past the last, the buckets widen to the next of foldSteps.
type foldSeries struct {
	began  time.Time
	step   int // into foldSteps
	points []foldPoint
	last   int       // the last bucket a request ended in
	end    time.Time // the last end
	any    bool      // whether a request has ended
}

// foldPoint is one bucket: the requests that ended in it by outcome, their latencies (to two
// significant digits, as a timeline's points need), and how many more started than ended in it.
type foldPoint struct {
	ack, rej, amb int
	lat           sketch
	delta         int
}

func (p *foldPoint) merge(o *foldPoint) {
	p.ack, p.rej, p.amb, p.delta = p.ack+o.ack, p.rej+o.rej, p.amb+o.amb, p.delta+o.delta
	p.lat.merge(&o.lat)
}

func (s *foldSeries) bucket(t time.Time) int {
	if !t.After(s.began) {
		return 0
	}
	return int(t.Sub(s.began) / foldSteps[s.step])
}

func (s *foldSeries) add(r *history.Record, ms float64, answered bool) {
	if r.Start.IsZero() || r.End.IsZero() {
		return
	}
	if s.points == nil {
		s.points = make([]foldPoint, maxBuckets)
	}
	for s.bucket(r.End) >= maxBuckets && s.step < len(foldSteps)-1 {
		s.widen()
	}
	e := min(s.bucket(r.End), maxBuckets-1)
	s.any, s.last = true, max(s.last, e)
	if r.End.After(s.end) {
		s.end = r.End
	}
	p := &s.points[e]
	switch r.Outcome {
	case history.Acknowledged:
		p.ack++
	case history.Rejected:
		p.rej++
	default:
		p.amb++
	}
	if answered {
		p.lat.add(ms)
	}
	p.delta--
	s.points[min(s.bucket(r.Start), e)].delta++
}

// widen merges the buckets into ones of the next step.
func (s *foldSeries) widen() {
	k := int(foldSteps[s.step+1] / foldSteps[s.step])
	s.step++
	out := make([]foldPoint, maxBuckets)
	for i := range s.points {
		out[i/k].merge(&s.points[i])
	}
	s.points, s.last = out, s.last/k
}

// series is the folded load over time: at one second or finer, the widest step that still gives
// minBuckets buckets.
func (s *foldSeries) series() *Series {
	if !s.any {
		return nil
	}
	for s.step < len(foldSteps)-1 && foldSteps[s.step+1] <= time.Second &&
		time.Duration(s.last+1)*foldSteps[s.step]/foldSteps[s.step+1] >= minBuckets {
		s.widen()
	}
	step := foldSteps[s.step]
	// The last end belongs to the last bucket, even when it falls on its edge.
	if n := max(int((s.end.Sub(s.began)+step-1)/step), 1); s.last >= n {
		for i := n; i <= s.last; i++ {
			s.points[n-1].merge(&s.points[i])
			s.points[i] = foldPoint{}
		}
		s.last = n - 1
	}
	out := &Series{Began: s.began, StepS: step.Seconds(), Points: make([]Point, s.last+1)}
	open := 0
	for i := range out.Points {
		p := &s.points[i]
		before := open
		open += p.delta
		q := p.lat.quantiles(0.50, 0.90, 0.99)
		out.Points[i] = Point{AtS: (time.Duration(i) * step).Seconds(), Acknowledged: p.ack, Rejected: p.rej, Ambiguous: p.amb,
			P50: q[0], P90: q[1], P99: q[2], InFlight: max(before, open)}
	}
	return out
}
