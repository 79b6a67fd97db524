package cleanup

import (
	"context"
	"fmt"
	"slices"

	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// JobsPlan plans deleting a jobs run's jobs, each on the replica its history names. A job is
// planned only on one of the targets the history's header names, and only when its record proves
// the run made it (profile.ProveJob); any other is skipped, and said so.
func JobsPlan(_ context.Context, h *history.History, o Options) (*Plan, error) {
	if o.StateDir != "" || o.Target != nil {
		return nil, &UsageError{"a jobs run leaves no files, and its history names each job's replica: leave out {StateDir} and {Target}"}
	}
	var skipped []Skipped
	keep := func(r *history.Record, id string) bool {
		reason := ""
		if !slices.Contains(h.Header.Targets, r.Target) {
			reason = fmt.Sprintf("its replica %s is not among the run's targets (the history's header): nothing is sent there", r.Target)
		} else if err := profile.ProveJob(h.Header.Run, r, id); err != nil {
			reason = err.Error()
		}
		if reason != "" {
			skipped = append(skipped, Skipped{Kind: "job", ID: id, Target: r.Target, Seq: r.Seq, Reason: reason})
		}
		return reason == ""
	}
	jobs, unknown, err := profile.RunJobsWhere(h, keep)
	if err != nil {
		return nil, err
	}
	p := &Plan{Result: Result{Run: h.Header.Run, Profile: h.Header.Profile, DryRun: true, Removed: []string{}, Unknown: unknown, Skipped: skipped},
		jobs: jobs, client: o.Client, header: o.Header, wait: o.InFlightWait}
	if jobs == nil {
		p.jobs = []profile.JobRef{} // a jobs plan, with nothing to delete
	}
	replicas := map[string]bool{}
	for _, j := range jobs {
		replicas[j.Target] = true
		p.Jobs = append(p.Jobs, profile.JobDeletion{JobRef: j, Outcome: WouldDelete})
	}
	p.replicas = len(replicas)
	return p, nil
}
