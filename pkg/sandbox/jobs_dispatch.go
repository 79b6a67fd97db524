package sandbox

import (
	"context"
	"strconv"
	"time"
)

// run runs the dispatcher's tick and the watchdog until ctx ends.
func (s *jobsService) run(ctx context.Context) {
	go every(ctx, s.clk, s.cfg.Jobs.DispatchInterval, func() {
		for s.dispatchOnce() {
		}
	})
	every(ctx, s.clk, s.cfg.Jobs.WatchdogInterval, s.watchdog)
}

// every calls f now and then every d of clk until ctx ends.
func every(ctx context.Context, clk clock, d time.Duration, f func()) {
	t := clk.NewTicker(d)
	defer t.Stop()
	for {
		f()
		select {
		case <-ctx.Done():
			return
		case <-t.C():
		}
	}
}

// jobSteps splits a job's duration into its dispatching and submitting steps (the submit
// thread's start and `elastic-blast submit`) and its running time.
func jobSteps(d time.Duration) (step, run time.Duration) {
	step = min(d/10, 50*time.Millisecond)
	return step, d - 2*step
}

func (s *jobsService) now() time.Time { return s.clk.Now() }

func (s *jobsService) stamp() string { return isoTime(s.now()) }

// dispatchOnce is _dispatcher_once: claim the next queued job if a slot is free and start its
// submit thread. It reports whether it claimed one.
func (s *jobsService) dispatchOnce() bool {
	now := s.stamp()
	j, err := s.st.claim(s.ctx, s.limit, map[string]string{fStartedAt: now, fUpdatedAt: now, fLastProgressAt: now,
		fClaimed: strconv.Itoa(s.cfg.Replica)})
	if err != nil {
		if s.ctx.Err() == nil {
			s.cfg.Logf("job dispatcher: claiming a job: %v", err)
		}
		return false
	}
	if j == nil {
		return false
	}
	stop := make(chan struct{})
	s.mu.Lock()
	s.threads[j.ID] = stop
	s.mu.Unlock()
	s.live.Add(1)
	go s.submitThread(j, stop)
	return true
}

// alive reports whether this replica runs a submit thread for the job.
func (s *jobsService) alive(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.threads[id]
	return ok
}

// cancel stops the job's submit thread, if this replica runs one.
func (s *jobsService) cancel(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch, ok := s.threads[id]; ok {
		close(ch)
		delete(s.threads, id)
	}
}

// submitThread is _run_submit_bg: the job goes submitting, `elastic-blast submit` runs, then the
// job is running (or requeued once, as its record says), and the thread's exit claims the next
// queued job. Like _update_job, its updates apply to the job whatever its state, as long as it
// exists: a job a second submit of its key wrote back to queued meanwhile becomes running again. A thread that "dies" (the recovered requeue) claims nothing: its job stays
// submitting, holding its slot, until the watchdog requeues it.
func (s *jobsService) submitThread(j *job, stop chan struct{}) {
	ctx, id := s.ctx, j.ID
	died := false
	defer s.live.Add(-1)
	defer func() {
		s.mu.Lock()
		if s.threads[id] == stop {
			delete(s.threads, id)
		}
		s.mu.Unlock()
		if !died && ctx.Err() == nil {
			s.dispatchOnce()
		}
	}()
	step, run := jobSteps(s.dur)
	if !s.pause(stop, step) {
		return
	}
	now := s.stamp()
	ok, err := s.st.update(ctx, id, nil, map[string]string{fStatus: JobSubmitting,
		fAttempt: strconv.FormatInt(j.Attempt+1, 10), fUpdatedAt: now, fLastProgressAt: now})
	if err != nil || !ok || !s.pause(stop, step) {
		return
	}
	now = s.stamp()
	switch j.Requeue {
	case PhaseWaitingForCapacity:
		_, err = s.st.update(ctx, id, nil, map[string]string{fStatus: JobQueued, fPhase: PhaseWaitingForCapacity,
			fRequeue: "", fUpdatedAt: now, fLastProgressAt: now})
	case PhaseRecovered:
		died = true
		_, err = s.st.update(ctx, id, nil, map[string]string{fDead: "1", fRequeue: ""})
	default:
		_, err = s.st.update(ctx, id, nil, map[string]string{fStatus: JobRunning, fPhase: "submitted",
			fRunUntil: strconv.FormatInt(s.now().Add(run).UnixNano(), 10), fUpdatedAt: now, fLastProgressAt: now})
	}
	if err != nil && ctx.Err() == nil {
		s.cfg.Logf("job %s: %v", id, err)
	}
}

// pause waits d; false when the thread was cancelled or the server stops.
func (s *jobsService) pause(stop chan struct{}, d time.Duration) bool {
	t := s.clk.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C():
		return true
	case <-stop:
	case <-s.ctx.Done():
	}
	return false
}

// refresh is _refresh_job_status, what a status read of an active job does: a running job whose
// work is done becomes completed, which frees its slot (and starts nothing); any other active
// job gets its phase from the cluster (submitting, or running).
func (s *jobsService) refresh(ctx context.Context, j *job) (*job, error) {
	st := j.Status
	if !JobActive(st) {
		return j, nil
	}
	now := s.now()
	set := map[string]string{fUpdatedAt: isoTime(now)}
	switch {
	case st == JobRunning && j.RunUntil > 0 && now.UnixNano() >= j.RunUntil:
		set[fStatus], set[fPhase], set[fCompletedAt], set[fLastProgressAt] = JobCompleted, JobCompleted, isoTime(now), isoTime(now)
	case st == JobRunning:
		set[fPhase] = JobRunning
	default:
		set[fPhase] = JobSubmitting
	}
	if _, err := s.st.update(ctx, j.ID, []string{st}, set); err != nil {
		return nil, err
	}
	return s.st.get(ctx, j.ID)
}

// watchdog is _watchdog_once: it refreshes every active job, and requeues (phase recovered)
// those this replica claimed whose submit thread died. Unlike the real one it does not wait
// RECLAIM_GRACE_SECONDS (45 s) after the job started.
func (s *jobsService) watchdog() {
	ctx := s.ctx
	js, err := s.st.list(ctx)
	if err != nil {
		if ctx.Err() == nil {
			s.cfg.Logf("job watchdog: %v", err)
		}
		return
	}
	for _, j := range js {
		if !JobActive(j.Status) {
			continue
		}
		r, err := s.refresh(ctx, j)
		if err != nil || !r.Dead || r.ClaimedBy != strconv.Itoa(s.cfg.Replica) || s.alive(r.ID) {
			continue
		}
		now := s.stamp()
		if ok, _ := s.st.update(ctx, r.ID, []string{JobDispatching, JobSubmitting}, map[string]string{fStatus: JobQueued, fPhase: PhaseRecovered,
			fQueuedAt: now, fDead: "", fError: "", fUpdatedAt: now, fLastProgressAt: now}); ok {
			s.cfg.Logf("job watchdog: reclaimed dead-thread job %s -> queued (recovered)", r.ID)
		}
	}
}
