package jobs

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/osctl/osctl/pkg/stress/cleanup"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// Plan plans deleting a jobs run's jobs (a cleanup.PlanFunc), each on the replica its history names. A job is
// planned only on one of the targets the history's header names, and only when its record proves
// the run made it (profile.ProveJob); any other is skipped, and said so.
func Plan(_ context.Context, h *history.History, o cleanup.Options) (*cleanup.Plan, error) {
	if o.StateDir != "" || o.Target != nil {
		return nil, &cleanup.UsageError{Msg: "a jobs run leaves no files, and its history names each job's replica: leave out {StateDir} and {Target}"}
	}
	var skipped []cleanup.Skipped
	keep := func(r *history.Record, id string) bool {
		reason := ""
		if !slices.Contains(h.Header.Targets, r.Target) {
			reason = fmt.Sprintf("its replica %s is not among the run's targets (the history's header): nothing is sent there", r.Target)
		} else if err := profile.ProveJob(h.Header.Run, r, id); err != nil {
			reason = err.Error()
		}
		if reason != "" {
			skipped = append(skipped, cleanup.Skipped{Kind: "job", ID: id, Target: r.Target, Seq: r.Seq, Reason: reason})
		}
		return reason == ""
	}
	jobs, unknown, err := profile.RunJobsWhere(h, keep)
	if err != nil {
		return nil, err
	}
	d := &jobDeleter{jobs: jobs, client: o.Client, header: o.Header, wait: o.InFlightWait}
	p := &cleanup.Plan{Result: cleanup.Result{Run: h.Header.Run, Profile: h.Header.Profile, DryRun: true, Removed: []string{}, Unknown: unknown, Skipped: skipped},
		Deleter: d}
	replicas := map[string]bool{}
	for _, j := range jobs {
		replicas[j.Target] = true
		p.Jobs = append(p.Jobs, profile.JobDeletion{JobRef: j, Outcome: cleanup.WouldDelete})
	}
	d.replicas = len(replicas)
	return p, nil
}

// jobDeleter deletes a run's jobs through the job API, each on its replica (cleanup.Deleter).
type jobDeleter struct {
	jobs     []profile.JobRef
	client   profile.Doer
	header   http.Header
	replicas int
	wait     time.Duration
}

// Pending implements cleanup.Deleter.
func (d *jobDeleter) Pending(*cleanup.Result) int { return len(d.jobs) }

// Question implements cleanup.Deleter.
func (d *jobDeleter) Question(p *cleanup.Plan) string {
	if n := d.unanswered(); n > 0 {
		return fmt.Sprintf("Delete %d jobs of stress run %s on %d replica(s) (%d of them named only by the idempotency key of a submit that got no answer: they may not exist)?", len(d.jobs), p.Run, d.replicas, n)
	}
	return fmt.Sprintf("Delete %d jobs of stress run %s on %d replica(s)?", len(d.jobs), p.Run, d.replicas)
}

func (d *jobDeleter) unanswered() int {
	n := 0
	for _, j := range d.jobs {
		if j.Unanswered {
			n++
		}
	}
	return n
}

// Delete implements cleanup.Deleter.
func (d *jobDeleter) Delete(ctx context.Context, r *cleanup.Result) error {
	c := &profile.JobCleanup{Client: d.client, Header: d.header, InFlightWait: d.wait}
	r.InFlightWait = c.InFlightWaitOrDefault().String()
	dels, err := c.Delete(ctx, d.jobs)
	r.Jobs = dels
	for _, x := range dels {
		switch x.Outcome {
		case profile.JobDeleted:
			r.Deleted++
		case profile.JobAlreadyGone:
			r.AlreadyGone++
		case profile.JobNotFound:
			r.NotFound++
		default:
			r.NotDeleted++
		}
	}
	switch {
	case err != nil:
		return fmt.Errorf("%v (the jobs listed above were handled before it)", err)
	case r.NotDeleted > 0:
		return fmt.Errorf("%d of %d jobs were not deleted (listed above); run cleanup again to retry", r.NotDeleted, len(d.jobs))
	}
	return nil
}
