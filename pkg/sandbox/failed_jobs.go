package sandbox

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// maxFailedJobs bounds GET /status/failed_jobs: the newest entries of resque:failed.
const maxFailedJobs = 1000

// FailedJob is one entry of resque:failed as GET /status/failed_jobs gives it (sandbox only):
// Resque's failure record (failed_at, payload, exception, error, worker, queue) and, added by
// the sandbox, run_at, when the worker began the job.
type FailedJob struct {
	FailedAt  string `json:"failed_at"`
	RunAt     string `json:"run_at,omitempty"`
	Payload   any    `json:"payload"`
	Exception string `json:"exception"`
	Error     string `json:"error"`
	Worker    string `json:"worker"`
	Queue     string `json:"queue"`
}

// failedJobs is GET /status/failed_jobs: the newest maxFailedJobs failures of every replica's
// worker (they share resque:failed), oldest first.
func (s *openStudioService) failedJobs(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	raw, err := s.resque.rdb.LRange(ctx, s.resque.failedKey(), -maxFailedJobs, -1).Result()
	if err != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "reading resque:failed: " + err.Error()})
		return
	}
	out := make([]FailedJob, 0, len(raw))
	for _, v := range raw {
		var f FailedJob
		if json.Unmarshal([]byte(v), &f) == nil {
			out = append(out, f)
		}
	}
	writeJSON(w, http.StatusOK, out)
}
