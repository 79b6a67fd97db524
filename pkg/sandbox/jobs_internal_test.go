package sandbox

import (
	"context"
	"fmt"
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

func (s *spyStore) claim(ctx context.Context, limit int, set map[string]string) (jobRec, error) {
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
// claims the head of the queue, which is that job again (the oldest): it then runs once.
func TestRequeueWaitingForCapacity(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{StateDir: t.TempDir(), MaxActive: 1, JobDuration: 100 * time.Millisecond,
		Jobs: JobsConfig{DispatchInterval: time.Hour, WatchdogInterval: time.Hour, RequeueEvery: 1, RequeuePhase: PhaseWaitingForCapacity}}.withDefaults()
	q, err := newJobsService(ctx, cfg, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	spy := &spyStore{localStore: newLocalStore()}
	q.st = spy
	j := jobRec{"job_id": "0123456789ab", "status": JobQueued, "priority": "50", fSeq: "1", "attempt": "0"}
	if _, created, err := spy.create(ctx, j, cfg.Jobs.RequeueEvery, cfg.Jobs.RequeuePhase); err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	if !q.dispatchOnce() {
		t.Fatal("nothing claimed")
	}
	testenv.Eventually(t, 10*time.Second, "the requeued job to run", func() bool { return slices.Contains(spy.events(), JobRunning+"/submitted") },
		func() string { return fmt.Sprint(spy.events()) })
	want := "dispatching submitting queued/waiting_for_capacity dispatching submitting running/submitted"
	if got := strings.Join(spy.events(), " "); got != want {
		t.Fatalf("states %q, want %q", got, want)
	}
	if got, _ := spy.get(ctx, j.id()); got["attempt"] != "2" || got[fRequeue] != "" {
		t.Fatalf("after the requeue: attempt %q, requeue %q; want 2 and none left", got["attempt"], got[fRequeue])
	}
}
