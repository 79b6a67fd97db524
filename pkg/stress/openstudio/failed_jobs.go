package openstudio

import (
	"context"
	"net/http"
	"time"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// failedJobs reads, from a target that is the sandbox, the extractions of the run's analyses
// that failed (its Resque failure list), so that the verdict judges them. A real server's
// failures are not readable over HTTP: its stuck analyses are judged from the jobs alone.
func failedJobs(ctx context.Context, e *stress.StageEnv, f *history.Footer) {
	c := e.Deps().Client
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	ids := map[string]bool{}
	for _, rec := range e.Records() {
		if rec.Analysis != "" {
			ids[rec.Analysis] = true
		}
	}
	for _, t := range e.LiveTargets() {
		if !t.Status.Sandbox {
			continue
		}
		jobs, err := profile.FailedExtractions(ctx, c, t.URL, func(a string) bool { return ids[a] })
		if err != nil {
			e.Notice("the failed background jobs were not read from %s: %v", t.URL.Redacted(), err)
			continue
		}
		f.FailedJobs = jobs
		return
	}
}
