package detect

import (
	"fmt"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// ceilingFinding is the ceiling breach: n jobs surely active at once at `at` (who), a lower bound
// of how many the service ran, with the stretch during which more than maxActive were seen, what
// the service's own job list shows when it shows more, and the replay race when the evidence
// points at it.
func ceilingFinding(h *history.History, r jobsRun, sure []interval, maxActive, n int, at time.Time, who []string) Finding {
	from, to := at, at
	for _, a := range Above(spansOf(sure), maxActive) {
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
	f := Finding{Kind: Ceiling, Object: fmt.Sprintf("at least %d jobs", n), Requests: jobRefs(who, r.submits),
		Expected: fmt.Sprintf("at most %d jobs active at once", maxActive), Got: got}
	if rp := replayRace(h, r, who, to); rp != nil {
		f.Cause = CauseReplayRace
		f.Got += fmt.Sprintf("; all on one replica (%s), after request #%d's replay of a submit still in flight (%s): elb-openapi's replay race, not its per-replica queues",
			rp.Target, rp.Seq, replayAnswer(rp.Replay))
		f.Requests = append(f.Requests, ref(rp))
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
