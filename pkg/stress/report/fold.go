package report

import (
	"time"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// LoadFold is the load's breakdown (per operation, per target and over time) folded from its
// request records one at a time, in memory that does not grow with their number: the report of a
// run whose verdict needs no records (the http profile) is built from it, live and offline alike,
// so that a run's records need not be kept. Its latencies are to three significant digits per
// operation and target and to two over time, and its requests in flight over time are those open
// at each bucket's edges.
type LoadFold struct {
	ops, targets foldTallies
	series       foldSeries
}

// NewLoadFold returns an empty fold whose series begins at began (the run's start).
func NewLoadFold(began time.Time) *LoadFold {
	return &LoadFold{series: foldSeries{began: began}}
}

// Add folds rec in, if it is a load request (not the setup), and says whether it was.
func (f *LoadFold) Add(r *history.Record) bool {
	if r.Kind != history.KindRequest || r.Setup {
		return false
	}
	ms, answered := latency(r)
	f.ops.get(detect.MixName(r.Op)).add(r.Outcome, ms, answered)
	f.targets.get(r.Target).add(r.Outcome, ms, answered)
	f.series.add(r, ms, answered)
	return true
}

// perOperation is perOperation of the folded load.
func (f *LoadFold) perOperation(h *history.History) []Breakdown {
	var ts foldTallies
	for _, op := range h.Header.Kind().Ops {
		ts.get(op)
	}
	for _, t := range f.ops.ts {
		ts.get(t.b.Name).merge(t)
	}
	return ts.rows()
}

// perTarget is perTarget of the folded load.
func (f *LoadFold) perTarget(targets []Target) []Breakdown {
	var ts foldTallies
	labels := map[string]string{}
	for _, t := range targets {
		ts.get(TargetLabel(t))
		labels[t.URL] = TargetLabel(t)
	}
	for _, t := range f.targets.ts {
		name, ok := labels[t.b.Name]
		if !ok {
			name = t.b.Name
		}
		ts.get(name).merge(t)
	}
	return ts.rows()
}

// foldTally is a tally whose latencies are a sketch to three significant digits.
type foldTally struct {
	b   Breakdown
	lat sketch
}

func (t *foldTally) add(outcome string, ms float64, answered bool) {
	t.b.count(outcome)
	if answered {
		t.lat.add(ms)
	}
}

func (t *foldTally) merge(o *foldTally) {
	t.b.Sent += o.b.Sent
	t.b.Acknowledged += o.b.Acknowledged
	t.b.Rejected += o.b.Rejected
	t.b.Ambiguous += o.b.Ambiguous
	t.lat.merge(&o.lat)
}

// foldTallies keeps tallies by name, in order of first appearance.
type foldTallies struct{ byName[foldTally] }

func (ts *foldTallies) get(name string) *foldTally {
	return ts.byName.get(name, func(name string) *foldTally { return &foldTally{b: Breakdown{Name: name}, lat: sketch{fine: true}} })
}

func (ts *foldTallies) rows() []Breakdown {
	out := make([]Breakdown, 0, len(ts.ts))
	for _, t := range ts.ts {
		b := t.b
		q := t.lat.quantiles(0.50, 0.99)
		b.P50, b.P99 = q[0], q[1]
		out = append(out, b)
	}
	return out
}
