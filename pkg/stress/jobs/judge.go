package jobs

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// activeRank orders the active states: a job seen at a lower rank after a higher one went back
// to queued in between, even if no poll saw it queued.
var activeRank = map[string]int{"dispatching": 1, "submitting": 2, "running": 3}

type interval struct {
	s, e time.Time
	job  string
}

// StrandLimit is how long a queued job may wait while capacity is free before it is stranded:
// grace, plus the service's dispatch tick (a correct elb-openapi claims a queued job only on a
// submit, a submit thread's exit or its tick), plus one poll (docs/migration/jobs.md).
func StrandLimit(h *history.History, grace time.Duration) time.Duration {
	return grace + headerDuration(h.Header.DispatchInterval) + headerDuration(h.Header.Poll)
}

func headerDuration(s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0
	}
	return d
}

// jobsRun is what one jobs history says about its jobs.
type jobsRun struct {
	submits map[string]*history.Record // acknowledged submits by job id
	lines   map[string]*history.Record // job lines by job id
	ids     []string                   // the acknowledged jobs, sorted
	unknown int                        // submits whose job may exist but cannot be followed
}

func readJobsRun(h *history.History) jobsRun {
	r := jobsRun{submits: map[string]*history.Record{}, lines: map[string]*history.Record{}}
	var unanswered []*history.Record
	for i := range h.Records {
		rec := &h.Records[i]
		switch {
		case rec.Kind == history.KindRequest && rec.Op == history.OpSubmitJob:
			if rec.Applied() && rec.Returned != "" {
				if r.submits[rec.Returned] == nil {
					r.submits[rec.Returned] = rec
					r.ids = append(r.ids, rec.Returned)
				}
			} else if rec.Outcome == history.Ambiguous {
				unanswered = append(unanswered, rec)
			}
		case rec.Kind == history.KindJob:
			r.lines[rec.Job] = rec
		}
	}
	// A submit that got no answer, whose job the polls found by the id its key names, is judged
	// as a job of the run from when it was sent; one whose job was never found may still hold a
	// slot nobody sees.
	for _, rec := range unanswered {
		if l := r.lines[rec.KeyJob]; rec.KeyJob != "" && l != nil && seen(l) {
			if r.submits[rec.KeyJob] == nil {
				r.submits[rec.KeyJob] = rec
				r.ids = append(r.ids, rec.KeyJob)
			}
			continue
		}
		r.unknown++
	}
	sort.Strings(r.ids)
	return r
}

func seen(line *history.Record) bool {
	for _, run := range line.Runs {
		if history.KnownState(run.State) {
			return true
		}
	}
	return false
}

// NotFinished counts the acknowledged jobs that were followed but had not ended, nor
// disappeared, when following them stopped (--job-timeout): the run says nothing about them.
func NotFinished(h *history.History) int {
	r := readJobsRun(h)
	n := 0
	for _, id := range r.ids {
		if l := r.lines[id]; l != nil && seen(l) && !l.Done && !l.Gone {
			n++
		}
	}
	return n
}

// Findings judges the jobs profile from observation only (docs/architecture.md, the stress contract, 7). Every interval is
// taken so that a correct server gives no finding whatever the polling granularity:
//
//   - surely active: from the end of the first poll of a run of polls that saw the job active
//     to the start of the last one; a poll that saw it queued (a requeue) or nothing readable
//     ends the run, and so does an active state seen after a later one;
//   - could hold a slot: from the submit on, except while polls saw it queued (from the end of
//     the first of them to the start of the last) and after the end of the first poll that saw
//     it ended or gone;
//   - ceiling: more than maxActive surely active at once;
//   - stranded: queued throughout a stretch longer than StrandLimit during which fewer than
//     maxActive jobs could hold a slot (each submit that may have made a job that cannot be
//     followed counts as holding one throughout);
//   - invisible: an acknowledged job never found; lost: one that answered 404 after it was
//     seen. A job still active when following it stopped is not finished: no finding
//     (NotFinished).
func Findings(h *history.History, maxActive int, grace time.Duration) []detect.Finding {
	var out []detect.Finding
	r := readJobsRun(h)
	limit := StrandLimit(h, grace)
	var sure, could, queued []interval
	for _, id := range r.ids {
		sub, line := r.submits[id], r.lines[id]
		if line == nil || !seen(line) {
			if line != nil {
				out = append(out, detect.Finding{Kind: detect.Invisible, Object: id, Paths: []string{line.Path}, Requests: []detect.RequestRef{detect.Ref(sub)},
					Expected: "GET of the acknowledged job's status finds it", Got: fmt.Sprintf("every poll answered %s", line.Runs[len(line.Runs)-1].State)})
			} else if h.Footer != nil && !h.Footer.Partial {
				out = append(out, detect.Finding{Kind: detect.Invisible, Object: id, Requests: []detect.RequestRef{detect.Ref(sub)}, Expected: "the acknowledged job's status can be followed", Got: "no status was recorded"})
			}
			could = append(could, interval{sub.Start, farFuture, id})
			continue
		}
		if line.Gone {
			last := line.Runs[len(line.Runs)-1]
			out = append(out, detect.Finding{Kind: detect.Lost, Object: id, Paths: []string{line.Path}, Requests: []detect.RequestRef{detect.Ref(sub)},
				Expected: "the acknowledged job can be read on its replica until it ends (osctl deletes nothing during a run)",
				Got:      fmt.Sprintf("answered 404 from %s, last seen %s", last.FirstStart.Format(time.RFC3339Nano), lastKnown(line))})
		}
		sure = append(sure, sureActive(id, line.Runs)...)
		qs := queuedStretches(id, line.Runs)
		queued = append(queued, qs...)
		could = append(could, mayHoldSlot(id, sub.Start, line, qs)...)
	}
	out = append(out, recreated(r)...)
	if maxActive <= 0 {
		return out
	}
	if n, at, who := peak(sure); n > maxActive {
		out = append(out, ceilingFinding(h, r, sure, maxActive, n, at, who))
	}
	free := maxActive - r.unknown
	for _, q := range queued {
		if q.e.Sub(q.s) <= limit {
			continue
		}
		if d, from := longestBelow(could, q.s, q.e, free); d > limit {
			out = append(out, detect.Finding{Kind: detect.Stranded, Object: q.job, Requests: jobRefs([]string{q.job}, r.submits),
				Expected: fmt.Sprintf("a queued job starts within %s (grace, dispatch interval and poll) once fewer than %d jobs are active", limit, maxActive),
				Got:      fmt.Sprintf("queued for %s from %s while at most %d jobs could have been active", d.Round(time.Millisecond), from.Format(time.RFC3339Nano), max(free-1, 0))})
		}
	}
	return out
}

func lastKnown(line *history.Record) string {
	for i := len(line.Runs) - 1; i >= 0; i-- {
		if run := line.Runs[i]; history.KnownState(run.State) {
			return run.State + " at " + run.LastStart.Format(time.RFC3339Nano)
		}
	}
	return "never"
}

// sureActive returns the stretches during which the job was surely active.
func sureActive(id string, runs []history.StateRun) []interval {
	var out []interval
	var first, last *history.StateRun
	flush := func() {
		if first != nil && first.FirstEnd.Before(last.LastStart) {
			out = append(out, interval{first.FirstEnd, last.LastStart, id})
		}
		first, last = nil, nil
	}
	for i := range runs {
		run := &runs[i]
		switch {
		case !history.ActiveStates[run.State]:
			flush()
		case first != nil && activeRank[run.State] >= activeRank[last.State]:
			last = run
		default:
			flush()
			first, last = run, run
		}
	}
	flush()
	return out
}

// queuedStretches returns the stretches during which the job was surely queued: within each run
// of polls that saw it queued with one phase. A queued job changes phase only when it was
// dispatched and requeued in between.
func queuedStretches(id string, runs []history.StateRun) []interval {
	var out []interval
	for _, run := range runs {
		if run.State == "queued" && run.FirstEnd.Before(run.LastStart) {
			out = append(out, interval{run.FirstEnd, run.LastStart, id})
		}
	}
	return out
}

// mayHoldSlot returns the stretches during which the job could have held a slot: from the
// submit until the first poll that saw it ended (or gone), except while surely queued.
func mayHoldSlot(id string, from time.Time, line *history.Record, queued []interval) []interval {
	end := farFuture
	if line.Gone {
		end = line.Runs[len(line.Runs)-1].FirstEnd // the 404s that ended following it
	}
	for _, run := range line.Runs {
		if history.TerminalStates[run.State] {
			end = run.FirstEnd
			break
		}
	}
	var out []interval
	cur := from
	for _, q := range queued { // in time order
		if !q.s.After(cur) {
			cur = maxTime(cur, q.e)
			continue
		}
		if q.s.After(end) {
			break
		}
		out = append(out, interval{cur, q.s, id})
		cur = maxTime(cur, q.e)
	}
	if cur.Before(end) {
		out = append(out, interval{cur, end, id})
	}
	return out
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

var farFuture = time.Unix(math.MaxInt32, 0)

func jobRefs(ids []string, submits map[string]*history.Record) []detect.RequestRef {
	var out []detect.RequestRef
	for i, id := range ids {
		if i == 8 {
			break
		}
		if s := submits[id]; s != nil {
			out = append(out, detect.Ref(s))
		}
	}
	return out
}

// peak is detect.Peak of intervals.
func peak(iv []interval) (int, time.Time, []string) { return detect.Peak(spansOf(iv)) }

// longestBelow is detect.LongestBelow of intervals.
func longestBelow(iv []interval, from, to time.Time, limit int) (time.Duration, time.Time) {
	return detect.LongestBelow(spansOf(iv), from, to, limit)
}

// SurelyActive returns the stretches during which each acknowledged job of a jobs history was
// surely active: the intervals the ceiling counts (Findings).
func SurelyActive(h *history.History) []detect.Span {
	r := readJobsRun(h)
	var out []detect.Span
	for _, id := range r.ids {
		if line := r.lines[id]; line != nil {
			for _, iv := range sureActive(id, line.Runs) {
				out = append(out, detect.Span{Start: iv.s, End: iv.e, Job: id})
			}
		}
	}
	return out
}
