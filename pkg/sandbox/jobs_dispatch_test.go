package sandbox_test

import (
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
)

// The dispatcher's tests run it on a fake clock: its tick, its watchdog and the submit threads'
// pauses fire only when the test moves the clock, so that "nothing happened" is checked at a
// known time rather than after a sleep.
const (
	clockJobDur = time.Second               // the job duration of the replicas on a fake clock
	clockStep   = 50 * time.Millisecond     // each of a submit thread's two pauses, with clockJobDur
	clockRun    = clockJobDur - 2*clockStep // how long a job runs once its thread made it running
	tickers     = 2                         // what waits on the clock of an idle replica: the tick and the watchdog
)

// serveOnClock starts a replica whose job dispatcher runs on a fake clock; it stops when the
// test ends.
func serveOnClock(t *testing.T, cfg sandbox.Config) (*replica, *sandbox.FakeClock) {
	t.Helper()
	clk := sandbox.NewFakeClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	cfg.JobDuration = clockJobDur
	r := startReplicaOn(t, cfg, clk)
	t.Cleanup(r.stop)
	return r, clk
}

// runThread takes the submit thread of a job just claimed through its two pauses (the tick and
// the watchdog being further off) and waits until it returned, the claim at its exit included:
// the job then runs, or was requeued, as its record says.
func runThread(t *testing.T, r *replica, clk *sandbox.FakeClock) {
	t.Helper()
	for range 2 {
		clk.WaitTimers(t, tickers+1)
		clk.Advance(clockStep)
	}
	testenv.Eventually(t, 10*time.Second, "the submit thread to return", func() bool { return r.srv.SubmitThreads() == 0 })
}

// activeAndQueued returns the active job and the queued one of a replica holding two jobs.
func activeAndQueued(t *testing.T, url string) (active, queued string) {
	t.Helper()
	for _, j := range listJobs(t, url, "") {
		if isActive(j["status"]) {
			active = j["job_id"].(string)
		} else if j["status"] == "queued" {
			queued = j["job_id"].(string)
		}
	}
	if active == "" || queued == "" {
		t.Fatalf("after two submits with a ceiling of 1: %v, want one active and one queued", listJobs(t, url, ""))
	}
	return active, queued
}

// TestJobDispatchTriggers: with no tick (1 h), a queued job is claimed only by a submit or a
// submit thread's exit; a finished job keeps its slot until a status read notices it, and that
// read starts nothing.
func TestJobDispatchTriggers(t *testing.T) {
	r, clk := serveOnClock(t, sandbox.Config{MaxActive: 1, Jobs: sandbox.JobsConfig{DispatchInterval: time.Hour, WatchdogInterval: time.Hour}})
	submitJobs(t, []string{r.url}, 2, "")
	a, b := activeAndQueued(t, r.url)
	if st := status(t, r.url, b, ""); st["status"] != "queued" || st["queue_position"] != 1.0 {
		t.Fatalf("second job: %v, want queued at position 1", st)
	}
	runThread(t, r, clk) // a runs; its thread's exit finds the slot taken
	if j := listed(t, r.url, "", a); j["status"] != "running" {
		t.Fatalf("first job after its submit thread: %v, want running", j)
	}
	// a's work is done once the clock passed its run; nobody reads it, so it stays running and
	// holds the slot.
	clk.Advance(clockRun)
	if j := listed(t, r.url, "", a); j["status"] != "running" {
		t.Fatalf("unread finished job: %v, want still running (GET /v1/jobs refreshes nothing)", j)
	}
	if j := listed(t, r.url, "", b); j["status"] != "queued" {
		t.Fatalf("queued job while the slot is held: %v", j)
	}
	// Reading a notices it finished: the slot frees, and nothing is started (no submit thread
	// either), though no tick is due for an hour.
	if st := status(t, r.url, a, ""); st["status"] != "completed" {
		t.Fatalf("status read of a finished job: %v, want completed", st)
	}
	if j := listed(t, r.url, "", b); j["status"] != "queued" || r.srv.SubmitThreads() != 0 || clk.Timers() != tickers {
		t.Fatalf("after the slot freed, with no submit and no tick: %v, %d submit threads, %d timers; want still queued, none, %d",
			j, r.srv.SubmitThreads(), clk.Timers(), tickers)
	}
	// A submit claims the head of the queue (b, the oldest), not itself.
	c := submitJobs(t, []string{r.url}, 1, "")
	for id := range c {
		if j := listed(t, r.url, "", id); j["status"] != "queued" {
			t.Errorf("the new job: %v, want queued behind b", j)
		}
	}
	if j := listed(t, r.url, "", b); !isActive(j["status"]) {
		t.Fatalf("b after a submit: %v, want claimed", j)
	}
}

// TestJobTickClaims: after a finished job is noticed, the queued one waits for the tick, and the
// tick claims it.
func TestJobTickClaims(t *testing.T) {
	const tick = 5 * time.Second
	r, clk := serveOnClock(t, sandbox.Config{MaxActive: 1, Jobs: sandbox.JobsConfig{DispatchInterval: tick, WatchdogInterval: time.Hour}})
	submitJobs(t, []string{r.url}, 2, "")
	a, b := activeAndQueued(t, r.url)
	runThread(t, r, clk)
	clk.Advance(clockRun)
	if st := status(t, r.url, a, ""); st["status"] != "completed" {
		t.Fatalf("status read of a finished job: %v, want completed", st)
	}
	// The tick is due tick after the clock's start; the clock is at clockJobDur.
	clk.Advance(tick - clockJobDur - time.Nanosecond)
	if j := listed(t, r.url, "", b); j["status"] != "queued" || r.srv.SubmitThreads() != 0 {
		t.Fatalf("queued job just before the tick: %v, %d submit threads; want still queued, none", j, r.srv.SubmitThreads())
	}
	clk.Advance(time.Nanosecond)
	clk.WaitTimers(t, tickers+1) // the tick claimed b: its submit thread waits on the clock
	if j := listed(t, r.url, "", b); !isActive(j["status"]) {
		t.Fatalf("queued job after the tick: %v, want claimed", j)
	}
	runThread(t, r, clk)
	clk.Advance(clockRun)
	if st := status(t, r.url, b, ""); st["status"] != "completed" {
		t.Fatalf("the job the tick claimed: %v, want completed", st)
	}
}

// TestJobRequeueRecovered: the submit thread of every job dies; the watchdog requeues the job
// (phase recovered), and only a submit or the tick claims it again; the second run completes.
func TestJobRequeueRecovered(t *testing.T) {
	const watchdog = 10 * time.Second
	r, clk := serveOnClock(t, sandbox.Config{MaxActive: 1,
		Jobs: sandbox.JobsConfig{DispatchInterval: time.Hour, WatchdogInterval: watchdog, RequeueEvery: 1}})
	var id string
	for k := range submitJobs(t, []string{r.url}, 1, "") {
		id = k
	}
	runThread(t, r, clk) // the thread dies: its job stays submitting, holding the slot
	if st := status(t, r.url, id, ""); st["status"] != "submitting" {
		t.Fatalf("job whose submit thread died, before the watchdog: %v, want submitting", st)
	}
	clk.Advance(watchdog - 2*clockStep) // the watchdog's first tick
	testenv.Eventually(t, 10*time.Second, "the watchdog to requeue the job", func() bool { return listed(t, r.url, "", id)["status"] == "queued" })
	if st := status(t, r.url, id, ""); st["phase"] != sandbox.PhaseRecovered || st["queue_position"] != 1.0 {
		t.Fatalf("requeued job: %v, want queued, phase recovered, position 1", st)
	}
	// Two more ticks of the watchdog: the receipt of the second means the pass on the first is
	// over. No tick (an hour off), no submit.
	clk.Advance(2 * watchdog)
	if st := status(t, r.url, id, ""); st["status"] != "queued" || r.srv.SubmitThreads() != 0 {
		t.Fatalf("requeued job with no trigger: %v, %d submit threads; want still queued, none", st, r.srv.SubmitThreads())
	}
	submitJobs(t, []string{r.url}, 1, "") // claims the requeued job, the oldest
	runThread(t, r, clk)
	if st := status(t, r.url, id, ""); st["status"] != "running" {
		t.Fatalf("requeued job after a submit: %v, want it running (not requeued again)", st)
	}
	clk.Advance(clockRun)
	if st := status(t, r.url, id, ""); st["status"] != "completed" {
		t.Fatalf("requeued job after its run: %v, want completed", st)
	}
}
