package profile

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/history"
)

// JobRef is one job a run created, or may have created, and the base URL of the replica that
// accepted its submit (which holds it in its own memory).
type JobRef struct {
	ID     string `json:"job_id"`
	Target string `json:"target"`
	// Seq is the submit that made it (the first, when several name it).
	Seq int64 `json:"seq,omitempty"`
	// Unanswered is set when no Answer named the job: its submit got no Answer (nor did a replay
	// name it), and the id is the one the service derives from the submit's idempotency key. The
	// job exists only if the service went on with the submit after the client gave up.
	Unanswered bool `json:"unanswered,omitempty"`
	// InFlight is set when the submit that made it may still have been in flight at the service
	// when the run ended (it got no Answer, or only its replay answered): the service can still
	// create, or re-create, the job after a delete, until some time after Sent.
	InFlight bool `json:"in_flight,omitempty"`
	// Sent is when the last request that may make the job (its submit or the replay) was sent.
	Sent time.Time `json:"sent,omitzero"`
	// How says how the run knows the job, for a message ("" for an acknowledged submit).
	How string `json:"how,omitempty"`
}

// RunJobs returns the jobs a jobs run's history says it created or may have created, on the
// replica that accepted each submit: every acknowledged submit's job (its replay's job for a
// submit that got no Answer), and, for a submit that got no Answer at all, the job its
// idempotency key names (history.Record.KeyJob). Unknown counts the submits that got no Answer and
// carried no key: any job they made has an id nobody knows.
func RunJobs(h *history.History) (jobs []JobRef, unknown int, err error) {
	return RunJobsWhere(h, nil)
}

// RunJobsWhere is RunJobs with only the submits keep returns true for, given each submit's
// record and the id of the job it names (nil keeps every one).
func RunJobsWhere(h *history.History, keep func(r *history.Record, id string) bool) (jobs []JobRef, unknown int, err error) {
	if !h.Header.Kind().Jobs {
		return nil, 0, fmt.Errorf("the history is of a %s run, not a jobs run", h.Header.Profile)
	}
	seen := map[[2]string]bool{}
	for _, r := range h.Records {
		if r.Kind != history.KindRequest || r.Op != history.OpSubmitJob {
			continue
		}
		ref := JobRef{Target: r.Target, Seq: r.Seq, Sent: r.Start, How: submitStory(&r)}
		if r.Replay != nil {
			ref.InFlight, ref.Sent = true, r.Replay.Start
		}
		switch {
		case r.Applied() && r.Returned != "":
			ref.ID = r.Returned
		case r.Outcome == history.Ambiguous && r.KeyJob != "":
			ref.ID, ref.Unanswered, ref.InFlight = r.KeyJob, true, true
		case r.Outcome == history.Ambiguous:
			unknown++
			continue
		default:
			continue // rejected: the service made no job
		}
		if keep != nil && !keep(&r, ref.ID) {
			continue
		}
		if strings.Contains(r.Target, redact.Mask) {
			return nil, 0, fmt.Errorf("the history keeps target %s without its password: the jobs cannot be reached from it", r.Target)
		}
		k := [2]string{ref.Target, ref.ID}
		if seen[k] {
			for i := range jobs { // a later submit of the same job: it may be in flight longer
				if jobs[i].Target == ref.Target && jobs[i].ID == ref.ID && ref.InFlight && ref.Sent.After(jobs[i].Sent) {
					jobs[i].InFlight, jobs[i].Sent = true, ref.Sent
				}
			}
			continue
		}
		seen[k] = true
		jobs = append(jobs, ref)
	}
	sort.SliceStable(jobs, func(a, b int) bool {
		if jobs[a].Target != jobs[b].Target {
			return jobs[a].Target < jobs[b].Target
		}
		return jobs[a].Seq < jobs[b].Seq
	})
	return jobs, unknown, nil
}

// submitStory says how a submit that got no direct Answer came to name its job (or not).
func submitStory(r *history.Record) string {
	rp := r.Replay
	switch {
	case rp == nil && r.Applied():
		return ""
	case rp == nil && r.Error != "":
		return "its submit got no Answer, and no replay was sent"
	case rp == nil:
		return fmt.Sprintf("its submit was answered %d %s", r.Status, http.StatusText(r.Status))
	case rp.Outcome == history.Acknowledged && rp.Existing:
		return "its submit got no answer; its replay named the job"
	case rp.Outcome == history.Acknowledged:
		return "its submit got no answer; its replay was answered as a new submit (the first was still in flight)"
	case rp.Error != "":
		return "its submit got no Answer, and its replay got none either"
	}
	return fmt.Sprintf("its submit got no Answer, and its replay was answered %d %s", rp.Status, http.StatusText(rp.Status))
}
