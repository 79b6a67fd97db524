package detect

import (
	"sort"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// Span is a stretch of time, of one job when Job is set.
type Span struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	Job   string    `json:"job,omitempty"`
}

// SurelyActive returns the stretches during which each acknowledged job of a jobs history was
// surely active: the intervals the ceiling counts (Jobs).
func SurelyActive(h *history.History) []Span {
	r := readJobsRun(h)
	var out []Span
	for _, id := range r.ids {
		if line := r.lines[id]; line != nil {
			for _, iv := range sureActive(id, line.Runs) {
				out = append(out, Span{Start: iv.s, End: iv.e, Job: id})
			}
		}
	}
	return out
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
