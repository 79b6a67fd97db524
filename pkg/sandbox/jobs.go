package sandbox

import (
	"context"
	"errors"
	"slices"
	"time"
)

// Job states of the elb-openapi job API (docs/migration/jobs.md).
const (
	JobQueued      = "queued"
	JobDispatching = "dispatching"
	JobSubmitting  = "submitting"
	JobRunning     = "running"
	JobCompleted   = "completed"
	JobFailed      = "failed"
	JobCancelled   = "cancelled"
)

// JobActive reports whether a state counts against the ceiling.
func JobActive(state string) bool {
	return state == JobDispatching || state == JobSubmitting || state == JobRunning
}

// JobTerminal reports whether a state is final.
func JobTerminal(state string) bool {
	return state == JobCompleted || state == JobFailed || state == JobCancelled
}

var errNoJob = errors.New("job not found")

// queueLess orders queued jobs as elb-openapi does: higher priority first, then oldest first.
func queueLess(a, b *job) bool {
	if a.Priority != b.Priority {
		return a.Priority > b.Priority
	}
	if a.Seq != b.Seq {
		return a.Seq < b.Seq
	}
	return a.ID < b.ID
}

// sortQueue sorts jobs in dispatch order (queueLess), keeping the order of equal ones.
func sortQueue(js []*job) {
	slices.SortStableFunc(js, func(a, b *job) int {
		switch {
		case queueLess(a, b):
			return -1
		case queueLess(b, a):
			return 1
		}
		return 0
	})
}

// isoTime formats t as Python's datetime.isoformat() of an aware UTC time.
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000+00:00") }

// jobStore is where a replica keeps its jobs: its own memory (local and split queues: the real
// service's process-local dict) or Redis (the shared queue: one store for every replica). Every
// method is atomic.
type jobStore interface {
	// create stores a new queued job. The shared store (the fixed service) creates it only unless
	// one with its id exists, in which case it returns that one and false; the local store writes
	// it over any job of its id, as elb-openapi's dict does (localStore.create). Every
	// requeueEvery-th job created is marked to be requeued once with phase.
	create(ctx context.Context, j *job, requeueEvery int, phase string) (*job, bool, error)
	get(ctx context.Context, id string) (*job, error)
	// list returns every job, oldest first.
	list(ctx context.Context) ([]*job, error)
	// queue returns the queued jobs' ids in dispatch order.
	queue(ctx context.Context) ([]string, error)
	// claim moves the first queued job to dispatching when fewer than limit jobs are active, with
	// set (a patch in the job's encoding) applied, and returns it; nil when the ceiling is
	// reached or nothing is queued.
	claim(ctx context.Context, limit int, set map[string]string) (*job, error)
	// update applies set to a job whose status is one of from (any when from is empty); false
	// when the job is gone or in another state. A "status" in set moves the job between queued,
	// active and done.
	update(ctx context.Context, id string, from []string, set map[string]string) (bool, error)
	// remove deletes a job and returns it; errNoJob when there is none.
	remove(ctx context.Context, id string) (*job, error)
}

// position returns a job's 1-based place in the queue, or 0 when it is not queued.
func position(ids []string, id string) int {
	for i, q := range ids {
		if q == id {
			return i + 1
		}
	}
	return 0
}
