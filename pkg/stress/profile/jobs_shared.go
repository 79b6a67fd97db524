package profile

import (
	"fmt"
	"net/http"
	"time"
)

// What the jobs profile (pkg/stress/jobs) shares with the run, the load workers and the cleanup.

// Defaults of the jobs profile.
const (
	// DefaultJobPoll is the status polling interval: a status read of an active job makes the
	// real service run kubectl and azcopy on its event loop, so it is never polled fast.
	DefaultJobPoll = time.Second
	// DefaultJobTimeout is how long one job is followed: real BLAST jobs run minutes to hours.
	DefaultJobTimeout = 30 * time.Minute
)

// AuthError says the job API refused the token (401 or 403): the run stops.
type AuthError struct {
	Method, URL string // URL without credentials
	Status      int
	Detail      string // the service's own message (FastAPI's "detail")
}

func (e *AuthError) Error() string {
	s := fmt.Sprintf("%s %s answered %d %s", e.Method, e.URL, e.Status, http.StatusText(e.Status))
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// JobsSummary says what following the jobs saw.
type JobsSummary struct {
	Followed    int64 `json:"followed"`
	Ended       int64 `json:"ended"`
	Gone        int64 `json:"gone"`
	NotFinished int64 `json:"not_finished"`
	// Requeued counts the jobs seen queued again after they were seen active.
	Requeued int64 `json:"requeued"`
	// Replayed counts the submits that got no Answer and whose replay named their job.
	Replayed int64 `json:"replayed"`
	// Unanswered counts the jobs looked for by the id their submit's key names, the submit
	// having got no answer; Found those that appeared, NotFound those that never did.
	Unanswered int64 `json:"unanswered"`
	Found      int64 `json:"found"`
	NotFound   int64 `json:"not_found"`
}

// DetailText is a FastAPI error's "detail" when it is a message (a validation error's is a list).
func DetailText(d any) string {
	if s, ok := d.(string); ok {
		return s
	}
	return ""
}
