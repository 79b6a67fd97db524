package openstudio

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// failedJobs reads the extractions of the run's analyses that failed, so that the verdict judges
// them: from Deps.ResqueFailed when given (the real server's failures), else from a target that
// is the sandbox (GET /status/failed_jobs). Without either, it says that they were not read.
func failedJobs(ctx context.Context, e *stress.StageEnv, f *history.Footer) {
	ids := map[string]bool{}
	starts := 0
	for _, rec := range e.Records() {
		if rec.Analysis != "" {
			ids[rec.Analysis] = true
		}
		if rec.Kind == history.KindRequest && rec.Op == history.OpStart && rec.Maybe() {
			starts++
		}
	}
	keep := func(a string) bool { return ids[a] }
	if e.Deps().ResqueFailed != nil {
		resqueFailed(ctx, e, f, keep)
		return
	}
	c := e.Deps().Client
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	sandbox := false
	for _, t := range e.LiveTargets() {
		if !t.Status.Sandbox {
			continue
		}
		sandbox = true
		jobs, err := profile.FailedExtractions(ctx, c, t.URL, keep)
		if err != nil {
			e.Notice("the failed background jobs were not read from %s: %v", t.URL.Redacted(), err)
			continue
		}
		f.FailedJobs = jobs
		return
	}
	if !sandbox && starts > 0 {
		e.Notice("the failed background jobs were not read: a real OpenStudio Server keeps them in its Redis (Resque's list resque:failed), not over HTTP, so an extraction that failed is seen only while its job stays \"queued\"; pass {ResqueRedis} URL to read them")
	}
}

// resqueFailed reads the run's failed extractions from Resque's failed list, those that failed
// since the run began, and says what it read and left out.
func resqueFailed(ctx context.Context, e *stress.StageEnv, f *history.Footer, keep func(string) bool) {
	rf := e.Deps().ResqueFailed
	key := rf.Key
	if key == "" {
		key = profile.ResqueFailedKey(profile.DefaultResqueNamespace)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	got, err := profile.ReadResqueFailed(ctx, rf.Client, key, e.Header.Started, keep)
	if err != nil {
		e.Notice("the failed background jobs were not read from %s %s: %v", rf.Name, key, err)
		return
	}
	f.FailedJobs = got.Jobs
	e.Notice("%s", resqueNotice(rf.Name, key, got))
}

// resqueNotice says what the run read of Resque's failed list.
func resqueNotice(name, key string, got profile.ResqueFailures) string {
	s := fmt.Sprintf("failed background jobs read from %s %s: %d failed extractions of this run's analyses", name, key, len(got.Jobs))
	if got.Len == 0 {
		s += " (the list holds no entry: no job failed yet, or its namespace is not {ResqueNamespace})"
	}
	if got.Cut {
		s += fmt.Sprintf("; read only the newest %d of its %d entries, all failed since the run began: failures of this run may be among the %d older ones, not read", got.Read, got.Len, got.Len-got.Read)
	} else if got.Read < got.Len {
		s += fmt.Sprintf("; read the newest %d of its %d entries, back to the run's start", got.Read, got.Len)
	}
	if got.Others > 0 {
		s += fmt.Sprintf("; %d other failures since the run began (other jobs or analyses) not judged", got.Others)
	}
	if got.Older > 0 {
		s += fmt.Sprintf("; %d failed before the run began, ignored", got.Older)
	}
	if got.OlderOfRun > 0 {
		s += fmt.Sprintf("; %d failures of this run's analyses are stamped before the run began, judged all the same (is the server's clock behind this machine's?)", got.OlderOfRun)
	}
	if got.Malformed > 0 {
		s += fmt.Sprintf("; %d malformed entries skipped", got.Malformed)
	}
	return s
}
