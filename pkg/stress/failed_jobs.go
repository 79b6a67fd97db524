package stress

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// ResqueFailed is the app's Redis that holds Resque's failed list: a real OpenStudio Server
// keeps its failed background jobs there (resque:failed) and serves them over no HTTP API.
type ResqueFailed struct {
	// Client reads the list (LLEN and LRANGE only: nothing is removed).
	Client redis.Cmdable
	// Key is the list (profile.ResqueFailedKey; default resque:failed).
	Key string
	// Name is how notices name the Redis: its URL with the password masked.
	Name string
}

// failedJobs reads the extractions of the run's analyses that failed, so that the verdict judges
// them: from Deps.ResqueFailed when given (the real server's failures), else from a target that
// is the sandbox (GET /status/failed_jobs). Without either, it says that they were not read.
func (r *runner) failedJobs(ctx context.Context, f *history.Footer) {
	ids := map[string]bool{}
	starts := 0
	for _, rec := range r.rec.records() {
		if rec.Analysis != "" {
			ids[rec.Analysis] = true
		}
		if rec.Kind == history.KindRequest && rec.Op == history.OpStart && rec.Maybe() {
			starts++
		}
	}
	keep := func(a string) bool { return ids[a] }
	if r.d.ResqueFailed != nil {
		r.resqueFailed(ctx, f, keep)
		return
	}
	c := r.d.Client
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	sandbox := false
	for _, t := range r.liveTargets() {
		if !t.Status.Sandbox {
			continue
		}
		sandbox = true
		jobs, err := profile.FailedExtractions(ctx, c, t.URL, keep)
		if err != nil {
			r.notice("the failed background jobs were not read from %s: %v", t.URL.Redacted(), err)
			continue
		}
		f.FailedJobs = jobs
		return
	}
	if !sandbox && starts > 0 {
		r.notice("the failed background jobs were not read: a real OpenStudio Server keeps them in its Redis (Resque's list resque:failed), not over HTTP, so an extraction that failed is seen only while its job stays \"queued\"; pass {ResqueRedis} URL to read them")
	}
}

// resqueFailed reads the run's failed extractions from Resque's failed list, those that failed
// since the run began, and says what it read and left out.
func (r *runner) resqueFailed(ctx context.Context, f *history.Footer, keep func(string) bool) {
	rf := r.d.ResqueFailed
	key := rf.Key
	if key == "" {
		key = profile.ResqueFailedKey(profile.DefaultResqueNamespace)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	got, err := profile.ReadResqueFailed(ctx, rf.Client, key, r.hdr.Started, keep)
	if err != nil {
		r.notice("the failed background jobs were not read from %s %s: %v", rf.Name, key, err)
		return
	}
	f.FailedJobs = got.Jobs
	r.notice("%s", resqueNotice(rf.Name, key, got))
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
		s += fmt.Sprintf(" (%d of them name this run's analyses: is the server's clock behind this machine's?)", got.OlderOfRun)
	}
	if got.Malformed > 0 {
		s += fmt.Sprintf("; %d malformed entries skipped", got.Malformed)
	}
	return s
}
