package report

import (
	"sort"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// Series is the load over time, in buckets of StepS seconds from Began (the first load request's
// start): one second, or finer for a short load, so that it has at least minBuckets buckets, and
// coarser for a long one, so that it has at most maxBuckets.
type Series struct {
	Began  time.Time `json:"began"`
	StepS  float64   `json:"step_s"`
	Points []Point   `json:"points"`
}

// Point is one bucket: the requests that ended in it by outcome, the latency percentiles of those
// that got an answer, and the most requests in flight at once during it.
type Point struct {
	AtS          float64 `json:"at_s"`
	Acknowledged int     `json:"acknowledged"`
	Rejected     int     `json:"rejected"`
	Ambiguous    int     `json:"ambiguous"`
	P50          float64 `json:"p50_ms"`
	P90          float64 `json:"p90_ms"`
	P99          float64 `json:"p99_ms"`
	InFlight     int     `json:"in_flight"`
}

const (
	minBuckets = 20
	maxBuckets = 900
)

// steps are the bucket widths a series may have.
var steps = []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond,
	200 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second,
	30 * time.Second, time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour}

// stepFor is one second, or the widest step giving at least minBuckets for a short span, or the
// narrowest giving at most maxBuckets for a long one.
func stepFor(span time.Duration) time.Duration {
	if span >= minBuckets*time.Second {
		for _, s := range steps {
			if s >= time.Second && span/s < maxBuckets {
				return s
			}
		}
		return steps[len(steps)-1]
	}
	best := steps[0]
	for _, s := range steps {
		if s <= time.Second && span/s >= minBuckets {
			best = s
		}
	}
	return best
}

// overTime buckets the load requests by the time they ended (in flight: while they ran).
func overTime(load []*history.Record) *Series {
	var first, last time.Time
	for _, r := range load {
		if r.Start.IsZero() || r.End.IsZero() {
			continue
		}
		if first.IsZero() || r.Start.Before(first) {
			first = r.Start
		}
		if r.End.After(last) {
			last = r.End
		}
	}
	if first.IsZero() {
		return nil
	}
	step := stepFor(last.Sub(first))
	n := max(int((last.Sub(first)+step-1)/step), 1)
	s := &Series{Began: first, StepS: step.Seconds(), Points: make([]Point, n)}
	lat := make([][]float64, n)
	bucket := func(t time.Time) int { return min(max(int(t.Sub(first)/step), 0), n-1) }
	// In flight: +1 at a start, -1 at an end; each bucket keeps the most open at once.
	type ev struct {
		t time.Time
		d int
	}
	evs := make([]ev, 0, 2*len(load))
	for _, r := range load {
		if r.Start.IsZero() || r.End.IsZero() {
			continue
		}
		p := &s.Points[bucket(r.End)]
		switch r.Outcome {
		case history.Acknowledged:
			p.Acknowledged++
		case history.Rejected:
			p.Rejected++
		default:
			p.Ambiguous++
		}
		if ms, ok := latency(r); ok {
			lat[bucket(r.End)] = append(lat[bucket(r.End)], ms)
		}
		evs = append(evs, ev{r.Start, 1}, ev{r.End, -1})
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].t.Equal(evs[j].t) {
			return evs[i].d < evs[j].d
		}
		return evs[i].t.Before(evs[j].t)
	})
	cur := 0
	for _, e := range evs {
		cur += e.d
		if p := &s.Points[bucket(e.t)]; cur > p.InFlight {
			p.InFlight = cur
		}
	}
	// A bucket in which nothing started or ended still had what was open at its start.
	open := 0
	k := 0
	for i := range s.Points {
		p := &s.Points[i]
		p.AtS = (time.Duration(i) * step).Seconds()
		for k < len(evs) && bucket(evs[k].t) < i {
			open += evs[k].d
			k++
		}
		p.InFlight = max(p.InFlight, open)
		sort.Float64s(lat[i])
		p.P50, p.P90, p.P99 = quantile(lat[i], 0.50), quantile(lat[i], 0.90), quantile(lat[i], 0.99)
	}
	return s
}
