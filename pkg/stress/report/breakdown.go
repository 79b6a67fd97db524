package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// Breakdown is one row of the per-operation or per-target table: requests sent, by outcome, and
// the latency of those that got an answer.
type Breakdown struct {
	Name         string  `json:"name"`
	Sent         int     `json:"sent"`
	Acknowledged int     `json:"acknowledged"`
	Rejected     int     `json:"rejected"`
	Ambiguous    int     `json:"ambiguous"`
	P50          float64 `json:"p50_ms"`
	P99          float64 `json:"p99_ms"`
}

// PollOp names the jobs profile's status polls in the per-operation table.
const PollOp = "poll"

// loadRecords are the history's load requests (not the setup), in the history's order.
func loadRecords(h *history.History) []*history.Record {
	var out []*history.Record
	for i := range h.Records {
		if r := &h.Records[i]; r.Kind == history.KindRequest && !r.Setup {
			out = append(out, r)
		}
	}
	return out
}

// latency is how long one request took, from its intended send time in an open loop; false when
// it got no answer (a transport error or a timeout).
func latency(r *history.Record) (float64, bool) {
	if r.Start.IsZero() || r.End.IsZero() || (r.Status == 0 && r.Error != "") {
		return 0, false
	}
	from := r.Start
	if !r.Intended.IsZero() && r.Intended.Before(from) {
		from = r.Intended
	}
	return float64(r.End.Sub(from)) / float64(time.Millisecond), true
}

// count counts one request of the given outcome.
func (b *Breakdown) count(outcome string) {
	b.Sent++
	switch outcome {
	case history.Acknowledged:
		b.Acknowledged++
	case history.Rejected:
		b.Rejected++
	default:
		b.Ambiguous++
	}
}

// tally accumulates one Breakdown.
type tally struct {
	b   Breakdown
	lat []float64
}

func (t *tally) add(outcome string, ms float64, answered bool) {
	t.b.count(outcome)
	if answered {
		t.lat = append(t.lat, ms)
	}
}

func (t *tally) done() Breakdown {
	sort.Float64s(t.lat)
	t.b.P50, t.b.P99 = quantile(t.lat, 0.50), quantile(t.lat, 0.99)
	return t.b
}

// quantile is the nearest-rank quantile of sorted values (0 when there are none).
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// byName keeps values by name, in order of first appearance; mk makes a name's value the first
// time it is asked for.
type byName[T any] struct {
	idx map[string]int
	ts  []*T
}

func (n *byName[T]) get(name string, mk func(name string) *T) *T {
	if n.idx == nil {
		n.idx = map[string]int{}
	}
	i, ok := n.idx[name]
	if !ok {
		i = len(n.ts)
		n.idx[name] = i
		n.ts = append(n.ts, mk(name))
	}
	return n.ts[i]
}

// tallies keeps tallies by name, in order of first appearance.
type tallies struct{ byName[tally] }

func (ts *tallies) get(name string) *tally {
	return ts.byName.get(name, func(name string) *tally { return &tally{b: Breakdown{Name: name}} })
}

func (ts *tallies) rows() []Breakdown {
	out := make([]Breakdown, 0, len(ts.ts))
	for _, t := range ts.ts {
		out = append(out, t.done())
	}
	return out
}

// perOperation breaks the load down by operation (the openstudio operations by their --mix
// names, in their fixed order), and for the jobs profile adds the status polls: each poll that
// read a job state is acknowledged, a 404 or other 4xx rejected, anything else ambiguous; their
// latency is known for the first and the last poll of each run of equal states.
func perOperation(h *history.History, load []*history.Record) []Breakdown {
	var ts tallies
	for _, op := range h.Header.Kind().Ops {
		ts.get(op)
	}
	for _, r := range load {
		ms, ok := latency(r)
		ts.get(detect.MixName(r.Op)).add(r.Outcome, ms, ok)
	}
	for i := range h.Records {
		if r := &h.Records[i]; r.Kind == history.KindJob {
			addPolls(ts.get(PollOp), r.Runs)
		}
	}
	return ts.rows()
}

func addPolls(t *tally, runs []history.StateRun) {
	for i, run := range runs {
		n := run.Polls
		if i == 0 {
			n-- // the first observation is the submit's own answer
		}
		out := pollOutcome(run.State)
		for k := 0; k < n; k++ {
			t.add(out, 0, false)
		}
		if n <= 0 {
			continue
		}
		if i > 0 || run.Polls == 1 {
			t.lat = append(t.lat, ms(run.FirstEnd.Sub(run.FirstStart)))
		}
		if run.Polls > 1 {
			t.lat = append(t.lat, ms(run.LastEnd.Sub(run.LastStart)))
		}
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func pollOutcome(state string) string {
	switch {
	case state == "missing" || strings.HasPrefix(state, "http-4"):
		return history.Rejected
	case state == "error" || state == "unreadable" || strings.HasPrefix(state, "http-"):
		return history.Ambiguous
	}
	return history.Acknowledged
}

// perTarget breaks the load down by target, in the run's order of targets.
func perTarget(load []*history.Record, targets []Target) []Breakdown {
	var ts tallies
	for _, t := range targets {
		ts.get(TargetLabel(t))
	}
	labels := map[string]string{}
	for _, t := range targets {
		labels[t.URL] = TargetLabel(t)
	}
	for _, r := range load {
		name, ok := labels[r.Target]
		if !ok {
			name = r.Target
		}
		ms, answered := latency(r)
		ts.get(name).add(r.Outcome, ms, answered)
	}
	return ts.rows()
}

// TargetLabel names a target: its pod (osctl stress --target-pods), else its URL and the replica
// it said it is (the sandbox).
func TargetLabel(t Target) string {
	u := redact.Text(t.URL)
	if t.Pod != "" {
		return "pod " + t.Pod
	}
	if t.Replica != nil {
		return fmt.Sprintf("replica %d %s", *t.Replica, strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://"))
	}
	return u
}
