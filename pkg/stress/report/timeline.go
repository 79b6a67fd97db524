package report

import (
	"sort"
	"time"

	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// How many race timelines a report draws: the first TimelinesAlways findings of each kind, then
// more of each kind up to TimelinesPerKind while the timelines drawn so far hold fewer than
// TimelineBarBudget bars (about 140 bytes of HTML each), so that a large run's page stays small.
// Each timeline draws every request its finding names, and at most TimelineContext other
// requests that touched the same object (those nearest in time to the named ones).
const (
	TimelinesAlways   = 5
	TimelinesPerKind  = 20
	TimelineBarBudget = 12000
	TimelineContext   = 200
)

// Timeline is one finding's race timeline: the requests that touched its object as bars on a time
// axis, one lane per target; the moment the state was read; for the jobs profile the jobs'
// active stretches and the stretches with more jobs active than the ceiling.
type Timeline struct {
	Finding   int // index in Report.Findings
	Origin    time.Time
	From, To  time.Time // the span of the bars
	Lanes     []Lane
	StateRead time.Time // zero when no state was read
	// Jobs are the jobs' surely-active stretches (jobs profile); Above the stretches during
	// which more jobs than the ceiling were surely active.
	Jobs  []detect.Span
	Above []detect.Span
	// Omitted counts the other requests on the object that were not drawn (TimelineContext).
	Omitted int
}

// Lane is one target's requests on a timeline, in rows so that overlapping requests do not hide
// one another.
type Lane struct {
	Label string
	Rows  int
	Bars  []Bar
}

// Bar is one request on a timeline. Named says the finding names it; Holds that the state holds
// its bytes.
type Bar struct {
	Seq        int64
	Op         string
	Start, End time.Time
	Status     int
	Outcome    string
	Row        int
	Named      bool
	Holds      bool
}

// Span is a stretch of time (of one job, for the jobs profile).
type Span = detect.Span

// Bars counts a timeline's bars.
func (t *Timeline) Bars() int {
	n := 0
	for _, l := range t.Lanes {
		n += len(l.Bars)
	}
	return n
}

// timelines draws the findings' timelines, as many as the limits above allow.
func timelines(h *history.History, r *Report) []Timeline {
	if len(r.Findings) == 0 {
		return nil
	}
	ix := indexObjects(h)
	origin := r.StartedAt
	if r.OverTime != nil {
		origin = r.OverTime.Began
	}
	active, above := r.active, []detect.Span(nil)
	if len(active) > 0 && r.Thresholds != nil && r.Thresholds.MaxActive > 0 {
		above = detect.Above(active, r.Thresholds.MaxActive)
	}
	var out []Timeline
	bars := 0
	for _, g := range r.Groups() {
		for k, i := range g.Indexes {
			if k >= TimelinesPerKind || (k >= TimelinesAlways && bars >= TimelineBarBudget) {
				break
			}
			t := timeline(ix, r, i, origin, active, above)
			if t.Bars() == 0 && len(t.Jobs) == 0 {
				continue
			}
			bars += t.Bars()
			out = append(out, t)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Finding < out[b].Finding })
	return out
}

// objects indexes a history's request records by the ids they carry.
type objects struct {
	bySeq map[int64]*history.Record
	byID  map[string][]*history.Record // load requests by analysis, data point, returned or asked id
}

func indexObjects(h *history.History) *objects {
	ix := &objects{bySeq: map[int64]*history.Record{}, byID: map[string][]*history.Record{}}
	for i := range h.Records {
		rec := &h.Records[i]
		if rec.Kind != history.KindRequest {
			continue
		}
		ix.bySeq[rec.Seq] = rec
		if rec.Setup {
			continue
		}
		seen := map[string]bool{}
		for _, id := range []string{rec.Analysis, rec.DataPoint, rec.Returned, rec.ID} {
			if id != "" && !seen[id] {
				seen[id] = true
				ix.byID[id] = append(ix.byID[id], rec)
			}
		}
	}
	return ix
}

func timeline(ix *objects, r *Report, i int, origin time.Time, active, above []detect.Span) Timeline {
	f := r.Findings[i]
	t := Timeline{Finding: i, Origin: origin, StateRead: r.StateRead}
	named := map[int64]bool{}
	holds := map[int64]bool{}
	for _, s := range f.Holds {
		holds[s] = true
	}
	var recs []*history.Record
	var from, to time.Time
	widen := func(s, e time.Time) {
		if from.IsZero() || s.Before(from) {
			from = s
		}
		if e.After(to) {
			to = e
		}
	}
	jobs := map[string]bool{}
	for _, q := range f.Requests {
		named[q.Seq] = true
		if rec := ix.bySeq[q.Seq]; rec != nil {
			recs = append(recs, rec)
			if rec.Op == history.OpSubmitJob && rec.Returned != "" {
				jobs[rec.Returned] = true
			}
		} else {
			// Not in the history (a report made without it): the finding's own reference.
			recs = append(recs, &history.Record{Seq: q.Seq, Op: q.Op, Start: q.Start, End: q.End, Status: q.Status, Outcome: q.Outcome})
		}
		widen(q.Start, q.End)
	}
	if len(f.Requests) == 0 {
		for _, rec := range ix.byID[f.Object] {
			widen(rec.Start, rec.End)
		}
	}
	var context []*history.Record
	for _, rec := range ix.byID[f.Object] {
		if !named[rec.Seq] {
			context = append(context, rec)
		}
	}
	if len(context) > TimelineContext {
		mid := from.Add(to.Sub(from) / 2)
		sort.SliceStable(context, func(a, b int) bool { return absDur(context[a].Start.Sub(mid)) < absDur(context[b].Start.Sub(mid)) })
		t.Omitted = len(context) - TimelineContext
		context = context[:TimelineContext]
	}
	for _, rec := range context {
		widen(rec.Start, rec.End)
	}
	recs = append(recs, context...)
	for _, s := range active {
		if jobs[s.Job] || s.Job == f.Object {
			t.Jobs = append(t.Jobs, s)
			widen(s.Start, s.End)
		}
	}
	if len(t.Jobs) > 0 {
		for _, s := range above {
			if s.End.After(from) && s.Start.Before(to) {
				t.Above = append(t.Above, s)
			}
		}
	}
	t.From, t.To = from, to
	t.Lanes = lanes(recs, r.Targets, named, holds)
	return t
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// maxRows bounds the rows of one lane: more overlapping requests share the last row.
const maxRows = 12

// lanes puts the requests into one lane per target (every target of the run when there are few,
// else only those with a request here), each request in the first row where it overlaps nothing.
func lanes(recs []*history.Record, targets []Target, named, holds map[int64]bool) []Lane {
	idx := map[string]int{}
	var out []Lane
	for _, tg := range targets {
		idx[tg.URL] = len(out)
		out = append(out, Lane{Label: TargetLabel(tg)})
	}
	sort.SliceStable(recs, func(a, b int) bool { return recs[a].Start.Before(recs[b].Start) })
	ends := make([][]time.Time, len(out))
	for _, rec := range recs {
		k, ok := idx[rec.Target]
		if !ok {
			k = len(out)
			idx[rec.Target] = k
			label := redact.Text(rec.Target)
			if label == "" {
				label = "(target not recorded)"
			}
			out = append(out, Lane{Label: label})
			ends = append(ends, nil)
		}
		row := len(ends[k])
		for j, e := range ends[k] {
			if !e.After(rec.Start) {
				row = j
				break
			}
		}
		if row == maxRows {
			row = maxRows - 1
		}
		if row == len(ends[k]) {
			ends[k] = append(ends[k], rec.End)
		} else if rec.End.After(ends[k][row]) {
			ends[k][row] = rec.End
		}
		out[k].Bars = append(out[k].Bars, Bar{Seq: rec.Seq, Op: rec.Op, Start: rec.Start, End: rec.End, Status: rec.Status,
			Outcome: rec.Outcome, Row: row, Named: named[rec.Seq], Holds: holds[rec.Seq]})
		out[k].Rows = max(out[k].Rows, row+1)
	}
	if len(targets) > 8 {
		kept := out[:0]
		for _, l := range out {
			if len(l.Bars) > 0 {
				kept = append(kept, l)
			}
		}
		out = kept
	}
	return out
}
