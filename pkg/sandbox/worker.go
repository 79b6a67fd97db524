package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"
)

// WorkerStatus is what GET /status says of a replica's background worker.
type WorkerStatus struct {
	// Queues are the Redis lists it takes jobs from, in order.
	Queues []string `json:"queues"`
	// Busy is true from the moment it looks for a job until a look finds none: false means it
	// sleeps (or is about to look again) and holds no job.
	Busy bool `json:"busy"`
	// Performed and Failed count the jobs it took that succeeded and that raised.
	Performed int64 `json:"performed"`
	Failed    int64 `json:"failed"`
	// Pending is how many jobs wait in its queues (all replicas share them); absent when Redis
	// did not answer.
	Pending *int64 `json:"pending,omitempty"`
}

// worker is the `resque:work` process that every OpenStudio web pod runs beside Passenger
// (docker/server/start-server.sh): it takes one job at a time from its queues, and when they are
// empty sleeps Resque's INTERVAL before it looks again.
type worker struct {
	q        resque
	queues   []string
	interval time.Duration
	// wait sleeps between polls (sleepCtx; tests replace it).
	wait func(ctx context.Context, d time.Duration) error
	// perform runs one job; an error is the job raising.
	perform func(ctx context.Context, class string, args []any) error
	name    string
	logf    func(string, ...any)

	busy              atomic.Bool
	performed, failed atomic.Int64
}

// run takes and performs jobs until ctx ends.
func (w *worker) run(ctx context.Context) {
	w.register(ctx)
	defer w.unregister(context.WithoutCancel(ctx))
	for ctx.Err() == nil {
		if !w.step(ctx) {
			_ = w.wait(ctx, w.interval)
		}
	}
}

// step takes one job and performs it; false when there was none to take.
func (w *worker) step(ctx context.Context) bool {
	w.busy.Store(true)
	queue, raw, err := w.q.reserve(ctx, w.queues)
	if err != nil || raw == "" {
		if err != nil && ctx.Err() == nil {
			w.logf("worker: reading the Resque queues: %v", err)
		}
		w.busy.Store(false)
		return false
	}
	runAt := w.working(ctx, queue, raw)
	defer w.done(context.WithoutCancel(ctx))
	var p resquePayload
	if err = json.Unmarshal([]byte(raw), &p); err != nil {
		err = fmt.Errorf("undecodable job %q: %v", raw, err)
	} else {
		err = w.perform(ctx, p.Class, p.Args)
	}
	if ctx.Err() != nil {
		return true // shutting down: the job is neither done nor failed
	}
	if err != nil {
		w.failed.Add(1)
		w.logf("worker: %s %v failed: %v", p.Class, p.Args[:min(3, len(p.Args))], err)
		if ferr := w.q.fail(context.WithoutCancel(ctx), queue, raw, w.name, runAt, err); ferr != nil {
			w.logf("worker: recording the failure in %s: %v", w.q.failedKey(), ferr)
		}
		return true
	}
	w.performed.Add(1)
	return true
}

// status says what the worker is doing; Pending is read from Redis.
func (w *worker) status(ctx context.Context) WorkerStatus {
	st := WorkerStatus{Busy: w.busy.Load(), Performed: w.performed.Load(), Failed: w.failed.Load()}
	for _, q := range w.queues {
		st.Queues = append(st.Queues, w.q.queueKey(q))
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if n, err := w.q.pending(ctx, w.queues); err == nil {
		st.Pending = &n
	}
	return st
}
