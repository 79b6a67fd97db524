package detect

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

var (
	activeStates   = map[string]bool{"dispatching": true, "submitting": true, "running": true}
	terminalStates = map[string]bool{"completed": true, "failed": true, "cancelled": true}
	knownStates    = map[string]bool{"queued": true, "dispatching": true, "submitting": true, "running": true, "completed": true, "failed": true, "cancelled": true}
)

type interval struct {
	s, e time.Time
	job  string
}

// Jobs judges the jobs profile from observation only (contract section 7). Every interval is
// taken so that a correct server gives no finding whatever the polling granularity: an active
// interval is the part of the job's life it was surely active (from the end of the first poll
// that saw it active to the start of the last), and when asking what could have been active, a
// job counts from the start of the last poll that saw it queued to the end of the first that saw
// it ended.
func Jobs(h *history.History, maxActive int, grace time.Duration) []Finding {
	var out []Finding
	submits := map[string]*history.Record{}
	var unknown int // submissions whose job may exist but cannot be followed
	var end time.Time
	for i := range h.Records {
		r := &h.Records[i]
		if r.End.After(end) {
			end = r.End
		}
		if r.Kind == history.KindRequest && r.Op == history.OpSubmitJob {
			if r.Applied() && r.Returned != "" {
				submits[r.Returned] = r
			} else if r.Outcome == history.Ambiguous {
				unknown++
			}
		}
	}
	lines := map[string]*history.Record{}
	for i := range h.Records {
		r := &h.Records[i]
		if r.Kind == history.KindJob {
			lines[r.Job] = r
			for _, run := range r.Runs {
				if run.LastEnd.After(end) {
					end = run.LastEnd
				}
			}
		}
	}
	var sure, could []interval
	type queued struct {
		s, e time.Time
		job  string
	}
	var qs []queued
	ids := make([]string, 0, len(submits))
	for id := range submits {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		sub := submits[id]
		line := lines[id]
		if line == nil {
			if h.Footer != nil && !h.Footer.Partial {
				out = append(out, Finding{Kind: Invisible, Object: id, Requests: []RequestRef{ref(sub)}, Expected: "the acknowledged job's status can be followed", Got: "no status was recorded"})
			}
			could = append(could, interval{sub.Start, farFuture, id})
			continue
		}
		seen := false
		for _, run := range line.Runs {
			if knownStates[run.State] {
				seen = true
			}
		}
		if !seen {
			out = append(out, Finding{Kind: Invisible, Object: id, Paths: []string{line.Path}, Requests: []RequestRef{ref(sub)},
				Expected: "GET of the acknowledged job's status finds it", Got: fmt.Sprintf("every poll answered %s", line.Runs[len(line.Runs)-1].State)})
			could = append(could, interval{sub.Start, farFuture, id})
			continue
		}
		if !line.Done {
			last := line.Runs[len(line.Runs)-1]
			out = append(out, Finding{Kind: Lost, Object: id, Paths: []string{line.Path}, Requests: []RequestRef{ref(sub)},
				Expected: "the acknowledged job ends", Got: fmt.Sprintf("still %s at the last poll (%s)", last.State, last.LastEnd.Format(time.RFC3339Nano))})
		}
		// Surely active: first poll seeing active .. last poll seeing active.
		var firstAct, lastAct *history.StateRun
		var lastQueued *history.StateRun
		var firstQueued *history.StateRun
		var firstTerm *history.StateRun
		for i := range line.Runs {
			run := &line.Runs[i]
			switch {
			case activeStates[run.State]:
				if firstAct == nil {
					firstAct = run
				}
				lastAct = run
			case run.State == "queued":
				if firstAct == nil && firstTerm == nil {
					if firstQueued == nil {
						firstQueued = run
					}
					lastQueued = run
				}
			case terminalStates[run.State]:
				if firstTerm == nil {
					firstTerm = run
				}
			}
		}
		if firstAct != nil && firstAct.FirstEnd.Before(lastAct.LastStart) {
			sure = append(sure, interval{firstAct.FirstEnd, lastAct.LastStart, id})
		}
		cs, ce := sub.Start, farFuture
		if lastQueued != nil {
			cs = lastQueued.LastStart
		}
		if firstTerm != nil {
			ce = firstTerm.FirstEnd
		}
		could = append(could, interval{cs, ce, id})
		if firstQueued != nil && firstQueued.FirstEnd.Before(lastQueued.LastStart) {
			qs = append(qs, queued{firstQueued.FirstEnd, lastQueued.LastStart, id})
		}
	}
	if maxActive <= 0 {
		return out
	}
	// ceiling: more than maxActive surely-active intervals overlap.
	if n, at, who := peak(sure); n > maxActive {
		out = append(out, Finding{Kind: Ceiling, Object: fmt.Sprintf("%d jobs", n), Requests: jobRefs(who, submits),
			Expected: fmt.Sprintf("at most %d jobs active at once", maxActive),
			Got:      fmt.Sprintf("%d jobs surely active at %s", n, at.Format(time.RFC3339Nano))})
	}
	// stranded: queued throughout a stretch longer than grace during which fewer than maxActive
	// jobs could have been active (ambiguous submissions count as possibly active throughout).
	for _, q := range qs {
		if d, from := longestBelow(could, q.s, q.e, maxActive-unknown); d > grace {
			out = append(out, Finding{Kind: Stranded, Object: q.job, Requests: jobRefs([]string{q.job}, submits),
				Expected: fmt.Sprintf("a queued job starts within %s once fewer than %d jobs are active", grace, maxActive),
				Got:      fmt.Sprintf("queued for %s from %s while at most %d jobs could have been active", d.Round(time.Millisecond), from.Format(time.RFC3339Nano), maxActive-1-max(unknown, 0))})
		}
	}
	return out
}

var farFuture = time.Unix(math.MaxInt32, 0)

func jobRefs(ids []string, submits map[string]*history.Record) []RequestRef {
	var out []RequestRef
	for i, id := range ids {
		if i == 8 {
			break
		}
		if s := submits[id]; s != nil {
			out = append(out, ref(s))
		}
	}
	return out
}

// peak returns the most intervals open at once (closed on the left, open on the right), when,
// and which.
func peak(iv []interval) (int, time.Time, []string) {
	type ev struct {
		t     time.Time
		delta int
	}
	evs := make([]ev, 0, 2*len(iv))
	for _, x := range iv {
		evs = append(evs, ev{x.s, 1}, ev{x.e, -1})
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].t.Equal(evs[j].t) {
			return evs[i].delta < evs[j].delta // ends before starts at one instant
		}
		return evs[i].t.Before(evs[j].t)
	})
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
		if !x.s.After(at) && x.e.After(at) {
			who = append(who, x.job)
		}
	}
	return best, at, who
}

// longestBelow returns the longest stretch inside [from, to] during which fewer than limit
// intervals are open, and where it begins.
func longestBelow(iv []interval, from, to time.Time, limit int) (time.Duration, time.Time) {
	if limit <= 0 {
		return 0, from
	}
	type ev struct {
		t     time.Time
		delta int
	}
	var evs []ev
	cur := 0
	for _, x := range iv {
		if !x.e.After(from) || !x.s.Before(to) {
			continue
		}
		if !x.s.After(from) {
			cur++
		} else {
			evs = append(evs, ev{x.s, 1})
		}
		if x.e.Before(to) {
			evs = append(evs, ev{x.e, -1})
		}
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].t.Equal(evs[j].t) {
			return evs[i].delta > evs[j].delta // starts first: count the worst case
		}
		return evs[i].t.Before(evs[j].t)
	})
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
