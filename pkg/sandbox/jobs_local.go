package sandbox

import (
	"context"
	"slices"
	"sync"
	"time"
)

// localQueue is elb-openapi's process-local dict: the ceiling is enforced against this replica's
// own jobs only, and no other replica can see them. It serves both per-replica queue modes: local
// (limit is the whole ceiling) and split (limit is this replica's share of it).
type localQueue struct {
	cfg   Config
	now   func() time.Time
	limit int           // jobs this replica runs at once
	dur   time.Duration // how long each job runs on this replica

	mu      sync.Mutex
	jobs    map[string]*Job
	order   []string // every job, oldest first
	queued  []string
	active  int
	stopped map[string]chan struct{} // closed when an active job is cancelled
	wake    chan struct{}
}

func newLocalQueue(cfg Config, now func() time.Time) *localQueue {
	return &localQueue{cfg: cfg, now: now, limit: cfg.replicaMaxActive(), dur: cfg.replicaJobDuration(), jobs: map[string]*Job{}, stopped: map[string]chan struct{}{}, wake: make(chan struct{}, 1)}
}

func (q *localQueue) stamp() string { return q.now().UTC().Format(time.RFC3339Nano) }

func (q *localQueue) notify() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// view returns a copy of j with its queue position (under q.mu).
func (q *localQueue) view(j *Job) Job {
	out := *j
	if i := slices.Index(q.queued, j.JobID); i >= 0 {
		pos := i + 1
		out.QueuePosition = &pos
	}
	return out
}

func (q *localQueue) submit(_ context.Context, program string) (Job, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	id := newUUID()
	now := q.stamp()
	rep := q.cfg.Replica
	j := &Job{JobID: id, Status: JobQueued, CreatedAt: now, UpdatedAt: now, StatusURL: statusURL(id), Program: program, Replica: &rep}
	q.jobs[id] = j
	q.order = append(q.order, id)
	q.queued = append(q.queued, id)
	q.notify()
	return q.view(j), nil
}

func (q *localQueue) get(_ context.Context, id string) (Job, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	j, ok := q.jobs[id]
	if !ok {
		return Job{}, errNoJob
	}
	return q.view(j), nil
}

func (q *localQueue) list(context.Context) ([]Job, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]Job, 0, len(q.order))
	for _, id := range q.order {
		out = append(out, q.view(q.jobs[id]))
	}
	return out, nil
}

func (q *localQueue) cancel(_ context.Context, id string) (Job, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	j, ok := q.jobs[id]
	if !ok {
		return Job{}, errNoJob
	}
	if JobTerminal(j.Status) {
		return q.view(j), errJobDone
	}
	if i := slices.Index(q.queued, id); i >= 0 {
		q.queued = slices.Delete(q.queued, i, i+1)
	}
	if ch, ok := q.stopped[id]; ok {
		close(ch)
		delete(q.stopped, id)
	}
	j.Status, j.UpdatedAt, j.FinishedAt = JobCancelled, q.stamp(), q.stamp()
	return q.view(j), nil
}

func (q *localQueue) run(ctx context.Context) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		q.mu.Lock()
		for q.active < q.limit && len(q.queued) > 0 {
			id := q.queued[0]
			q.queued = q.queued[1:]
			j := q.jobs[id]
			j.Status, j.UpdatedAt, j.StartedAt = JobDispatching, q.stamp(), q.stamp()
			q.active++
			stop := make(chan struct{})
			q.stopped[id] = stop
			go q.execute(ctx, j, stop)
		}
		q.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-q.wake:
		case <-tick.C:
		}
	}
}

// execute walks one job through its active states, then completes it and frees its slot.
func (q *localQueue) execute(ctx context.Context, j *Job, stop chan struct{}) {
	defer func() {
		q.mu.Lock()
		q.active--
		delete(q.stopped, j.JobID)
		q.mu.Unlock()
		q.notify()
	}()
	for _, ph := range jobPhases(q.dur) {
		q.mu.Lock()
		if j.Status == JobCancelled {
			q.mu.Unlock()
			return
		}
		j.Status, j.UpdatedAt = ph.state, q.stamp()
		q.mu.Unlock()
		t := time.NewTimer(ph.d)
		select {
		case <-t.C:
		case <-stop:
			t.Stop()
			return
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
	q.mu.Lock()
	if j.Status != JobCancelled {
		j.Status, j.UpdatedAt, j.FinishedAt = JobCompleted, q.stamp(), q.stamp()
	}
	q.mu.Unlock()
}
