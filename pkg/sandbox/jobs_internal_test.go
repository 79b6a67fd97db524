package sandbox

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

// spyStore is the real local store, with a log of every state a job was moved to.
type spyStore struct {
	*localStore
	mu  sync.Mutex
	log []string
}

func (s *spyStore) note(e string) {
	s.mu.Lock()
	s.log = append(s.log, e)
	s.mu.Unlock()
}

func (s *spyStore) events() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

func (s *spyStore) claim(ctx context.Context, limit int, set map[string]string) (*job, error) {
	j, err := s.localStore.claim(ctx, limit, set)
	if j != nil {
		s.note(JobDispatching)
	}
	return j, err
}

func (s *spyStore) update(ctx context.Context, id string, from []string, set map[string]string) (bool, error) {
	ok, err := s.localStore.update(ctx, id, from, set)
	if ok && set["status"] != "" {
		e := set["status"]
		if set["phase"] != "" {
			e += "/" + set["phase"]
		}
		s.note(e)
	}
	return ok, err
}

// TestRequeueWaitingForCapacity: the submit thread requeues the job and exits, and its exit
// claims the head of the queue, which is that job again (the oldest): it then runs once. The
// service runs on a fake clock, without its tick and watchdog: only the submit threads' pauses
// wait on it.
func TestRequeueWaitingForCapacity(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{StateDir: t.TempDir(), MaxActive: 1, JobDuration: time.Second,
		Jobs: JobsConfig{DispatchInterval: time.Hour, WatchdogInterval: time.Hour, RequeueEvery: 1, RequeuePhase: PhaseWaitingForCapacity}}.withDefaults()
	clk := NewFakeClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	q, err := newJobsService(ctx, cfg, clk)
	if err != nil {
		t.Fatal(err)
	}
	spy := &spyStore{localStore: newLocalStore()}
	q.st = spy
	j := &job{ID: "0123456789ab", Status: JobQueued, Priority: 50, Seq: 1}
	if _, created, err := spy.create(ctx, j, cfg.Jobs.RequeueEvery, cfg.Jobs.RequeuePhase); err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	if !q.dispatchOnce() {
		t.Fatal("nothing claimed")
	}
	step, _ := jobSteps(q.dur)
	for range 4 { // two runs of the thread, two pauses each: the first run's exit starts the second
		clk.WaitTimers(t, 1)
		clk.Advance(step)
	}
	testenv.Eventually(t, 10*time.Second, "the submit thread to return", func() bool { return q.live.Load() == 0 })
	want := "dispatching submitting queued/waiting_for_capacity dispatching submitting running/submitted"
	if got := strings.Join(spy.events(), " "); got != want {
		t.Fatalf("states %q, want %q", got, want)
	}
	if got, _ := spy.get(ctx, j.ID); got.Attempt != 2 || got.Requeue != "" {
		t.Fatalf("after the requeue: attempt %d, requeue %q; want 2 and none left", got.Attempt, got.Requeue)
	}
	if n := clk.Timers(); n != 0 {
		t.Fatalf("%d timers pending once the job runs: a third run of the thread", n)
	}
}

// TestJobEncodingRoundTrips: a job decodes from its encoding as it was, and a submitted job is
// stored with the fields a submit sets, no more (the Redis hash of the shared store).
func TestJobEncodingRoundTrips(t *testing.T) {
	key := "k1"
	full := &job{ID: "0123456789ab", Status: JobRunning, Phase: "submitted", Mode: "B", Priority: 75, Seq: 12, Attempt: 1,
		CreatedAt: "c", QueuedAt: "q", StartedAt: "s", UpdatedAt: "u", LastProgressAt: "l", CompletedAt: "d", Program: "blastn",
		DB: "db", DBName: "n", ClusterName: "cl", Resource: "r", Source: "external_api", CorrID: "x", IdempotencyKey: &key,
		Passthrough: `{"a":1}`, Error: "e", Replica: 2, ClaimedBy: "1", RunUntil: 99, Requeue: PhaseRecovered, Dead: true}
	if got := decodeJob(full.encode()); !reflect.DeepEqual(got, full) {
		t.Fatalf("decoded %+v, want %+v", got, full)
	}
	submitted := &job{ID: "0123456789ab", Status: JobQueued, Mode: "A", Priority: 50, Seq: 12}
	var fields []string
	for f := range submitted.encode() {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	want := "attempt cluster_name created_at db db_name external_correlation_id job_id last_progress_at mode priority program " +
		"queued_at replica resource_profile seq status submission_source updated_at"
	if got := strings.Join(fields, " "); got != want {
		t.Errorf("a submitted job is stored with %q, want %q", got, want)
	}
	j := submitted.clone()
	j.apply(map[string]string{fStatus: JobDispatching, fClaimed: "0", fDead: "1"})
	if j.Status != JobDispatching || j.ClaimedBy != "0" || !j.Dead || submitted.Status != JobQueued {
		t.Errorf("after a patch: %+v (the original %+v)", j, submitted)
	}
}
