package jobs

import (
	"fmt"
	"time"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// ceilingFinding is the ceiling breach: n jobs surely active at once at `at` (who), a lower bound
// of how many the service ran, with the stretch during which more than maxActive were seen, what
// the service's own job list shows when it shows more, and the replay race when the evidence
// points at it.
func ceilingFinding(h *history.History, r jobsRun, sure []interval, maxActive, n int, at time.Time, who []string) detect.Finding {
	from, to := at, at
	for _, a := range detect.Above(spansOf(sure), maxActive) {
		if !a.Start.After(at) && a.End.After(at) {
			from, to = a.Start, a.End
			break
		}
	}
	got := fmt.Sprintf("at least %d jobs active at once (seen by the polls) at %s; more than %d seen active from %s to %s (%s)",
		n, at.Format(time.RFC3339Nano), maxActive, from.Format(time.RFC3339Nano), to.Format(time.RFC3339Nano), to.Sub(from).Round(time.Millisecond))
	if sn, sat, _ := ServicePeak(h); sn > n {
		got += fmt.Sprintf("; the service's own job list shows %d active at once at %s", sn, sat.Format(time.RFC3339Nano))
	}
	f := detect.Finding{Kind: detect.Ceiling, Object: fmt.Sprintf("at least %d jobs", n), Requests: jobRefs(who, r.submits),
		Expected: fmt.Sprintf("at most %d jobs active at once", maxActive), Got: got}
	if rp := replayRace(h, r, who, to); rp != nil {
		f.Cause = detect.CauseReplayRace
		f.Got += fmt.Sprintf("; all on one replica (%s), after request #%d's replay of a submit still in flight (%s): elb-openapi's replay race, not its per-replica queues",
			rp.Target, rp.Seq, replayAnswer(rp.Replay))
		f.Requests = append(f.Requests, detect.Ref(rp))
	}
	return f
}

// replayRace returns the submit whose replay points at the replay race for a breach by jobs who
// that ended at `until`: the jobs were all accepted by one replica, and before the breach ended a
// submit to that replica got no answer and was replayed, and the replay was answered as a new job
// (the replica did not hold the job yet: its first submit was still in flight) or got no answer
// either. Nil when the breach spans replicas or no such replay preceded it.
func replayRace(h *history.History, r jobsRun, who []string, until time.Time) *history.Record {
	target := ""
	for _, id := range who {
		s := r.submits[id]
		if s == nil {
			return nil
		}
		if target == "" {
			target = s.Target
		} else if s.Target != target {
			return nil
		}
	}
	for i := range h.Records {
		rec := &h.Records[i]
		if rec.Kind != history.KindRequest || rec.Op != history.OpSubmitJob || rec.Target != target || rec.Replay == nil || !rec.Replay.Start.Before(until) {
			continue
		}
		if rp := rec.Replay; rp.Outcome != history.Acknowledged || !rp.Existing {
			return rec
		}
	}
	return nil
}

// replayAnswer says what a replay got, for a message.
func replayAnswer(rp *history.Replay) string {
	switch {
	case rp.Outcome == history.Acknowledged && rp.Existing:
		return "answered with the existing job"
	case rp.Outcome == history.Acknowledged:
		return "answered as a new job: the replica did not hold it yet"
	case rp.Error != "":
		return "the replay got no answer either"
	}
	return fmt.Sprintf("the replay was answered %d", rp.Status)
}

// recreated returns the duplicate findings of the replay race seen directly: a job seen active,
// then queued again with no requeue phase, whose own submit got no answer. elb-openapi sends a
// dispatched job back to queued only with the phase waiting_for_capacity or recovered; a queued
// job without a phase is one a submit's save (main.py _save_job) wrote over the job it had
// dispatched. Two submits of the key made it (the submit that got no answer, and its replay):
// the replay race. The job's run goes on while its slot is given to the next job, and it is
// dispatched a second time.
func recreated(r jobsRun) []detect.Finding {
	var out []detect.Finding
	for _, id := range r.ids {
		sub, line := r.submits[id], r.lines[id]
		if line == nil || sub.Error == "" {
			continue
		}
		var active *history.StateRun
		for i := range line.Runs {
			run := &line.Runs[i]
			switch {
			case history.ActiveStates[run.State]:
				active = run
			case active != nil && run.State == "queued" && run.Phase == "":
				f := detect.Finding{Kind: detect.Duplicate, Object: id, Paths: []string{line.Path}, Requests: []detect.RequestRef{detect.Ref(sub)}, Cause: detect.CauseReplayRace,
					Expected: "a dispatched job stays active until it ends, or is requeued with phase waiting_for_capacity or recovered",
					Got: fmt.Sprintf("seen %s at %s, then queued again with no requeue phase at %s: a second submit of its key (%s) made the job again over the one running, freeing its slot while it ran; elb-openapi's replay race, not its per-replica queues",
						active.State, active.LastStart.Format(time.RFC3339Nano), run.FirstStart.Format(time.RFC3339Nano), replayStory(sub))}
				out = append(out, f)
				active = nil
			case run.State != "queued":
				active = nil
			}
		}
	}
	return out
}

func replayStory(sub *history.Record) string {
	if sub.Replay == nil {
		return "the submit got no answer"
	}
	return fmt.Sprintf("the submit got no answer; its replay: %s", replayAnswer(sub.Replay))
}
