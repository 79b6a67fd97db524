package detect

import (
	"sort"
	"time"
)

// Span is a stretch of time, of one job when Job is set.
type Span struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	Job   string    `json:"job,omitempty"`
}

// Above returns the stretches during which more than n of spans are open at once, in time order.
func Above(spans []Span, n int) []Span {
	evs := make([]edge, 0, 2*len(spans))
	for _, s := range spans {
		evs = append(evs, edge{s.Start, 1}, edge{s.End, -1})
	}
	sortEdges(evs, true) // ends before starts at one instant, as peak counts
	var out []Span
	cur := 0
	var from time.Time
	for _, e := range evs {
		was := cur > n
		cur += e.delta
		switch now := cur > n; {
		case now && !was:
			from = e.t
		case was && !now && e.t.After(from):
			out = append(out, Span{Start: from, End: e.t})
		}
	}
	return out
}

// edge is where an interval opens (+1) or closes (-1).
type edge struct {
	t     time.Time
	delta int
}

// sortEdges puts edges in time order; at one instant the closes come first when endsFirst (an
// interval is open on the right), else the opens (the worst case).
func sortEdges(evs []edge, endsFirst bool) {
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].t.Equal(evs[j].t) {
			if endsFirst {
				return evs[i].delta < evs[j].delta
			}
			return evs[i].delta > evs[j].delta
		}
		return evs[i].t.Before(evs[j].t)
	})
}

// Peak returns the most spans open at once (closed on the left, open on the right), when,
// and which.
func Peak(iv []Span) (int, time.Time, []string) {
	evs := make([]edge, 0, 2*len(iv))
	for _, x := range iv {
		evs = append(evs, edge{x.Start, 1}, edge{x.End, -1})
	}
	sortEdges(evs, true)
	best, cur := 0, 0
	var at time.Time
	for _, e := range evs {
		cur += e.delta
		if cur > best {
			best, at = cur, e.t
		}
	}
	var who []string
	for _, x := range iv {
		if !x.Start.After(at) && x.End.After(at) {
			who = append(who, x.Job)
		}
	}
	return best, at, who
}

// LongestBelow returns the longest stretch inside [from, to] during which fewer than limit
// spans are open, and where it begins.
func LongestBelow(iv []Span, from, to time.Time, limit int) (time.Duration, time.Time) {
	if limit <= 0 {
		return 0, from
	}
	var evs []edge
	cur := 0
	for _, x := range iv {
		if !x.End.After(from) || !x.Start.Before(to) {
			continue
		}
		if !x.Start.After(from) {
			cur++
		} else {
			evs = append(evs, edge{x.Start, 1})
		}
		if x.End.Before(to) {
			evs = append(evs, edge{x.End, -1})
		}
	}
	sortEdges(evs, false) // starts first: count the worst case
	var best time.Duration
	var bestAt time.Time
	start := from
	below := cur < limit
	for _, e := range evs {
		if below {
			if d := e.t.Sub(start); d > best {
				best, bestAt = d, start
			}
		}
		cur += e.delta
		now := cur < limit
		if now && !below {
			start = e.t
		}
		below = now
	}
	if below {
		if d := to.Sub(start); d > best {
			best, bestAt = d, start
		}
	}
	return best, bestAt
}
