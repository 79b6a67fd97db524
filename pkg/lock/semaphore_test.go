package lock_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
)

func newSemaphore(t testing.TB, masters []redis.UniversalClient, name string, limit int, opts ...lock.Option) *lock.Semaphore {
	t.Helper()
	s, err := lock.NewSemaphore(masters, name, limit, opts...)
	if err != nil {
		t.Fatalf("NewSemaphore: %v", err)
	}
	return s
}

func TestSemaphoreLimitCountRelease(t *testing.T) {
	ctx := context.Background()
	rs := testenv.StartRedisMasters(t, 3)
	cs := testenv.Clients(rs)
	s := newSemaphore(t, cs, "jobs", 3)
	if _, err := lock.NewSemaphore(cs, "jobs", 0); err == nil {
		t.Fatal("NewSemaphore accepted limit 0")
	}
	var ps []*lock.Permit
	for i := range 3 {
		p, err := s.TryAcquire(ctx)
		if err != nil {
			t.Fatalf("permit %d: %v", i, err)
		}
		if _, ok := lock.ParseHolder(p.ID()); !ok {
			t.Fatalf("permit id %q is not a holder value", p.ID())
		}
		ps = append(ps, p)
	}
	if n, err := s.Count(ctx); err != nil || n != 3 {
		t.Fatalf("Count = %d, %v; want 3", n, err)
	}
	if _, err := s.TryAcquire(ctx); !errors.Is(err, lock.ErrNoPermit) {
		t.Fatalf("TryAcquire on a full semaphore: %v, want ErrNoPermit", err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	if _, err := s.Acquire(short); err == nil {
		t.Fatal("Acquire on a full semaphore succeeded")
	}
	cancel()
	if err := ps[0].Release(ctx); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(ps[0].Err(), context.Canceled) {
		t.Fatalf("released permit Err = %v", ps[0].Err())
	}
	if n, _ := s.Count(ctx); n != 2 {
		t.Fatalf("Count after a release = %d, want 2", n)
	}
	p, err := s.TryAcquire(ctx)
	if err != nil {
		t.Fatalf("TryAcquire after a release: %v", err)
	}
	for _, p := range append(ps[1:], p) {
		if err := p.Release(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := s.Count(ctx); n != 0 {
		t.Fatalf("Count after releasing all = %d", n)
	}
	var cursor uint64
	keys, _, _ := cs[0].Scan(ctx, cursor, "*", 100).Result()
	for _, k := range keys {
		if len(k) < len(lock.NamespacePrefix) || k[:len(lock.NamespacePrefix)] != lock.NamespacePrefix {
			t.Errorf("semaphore key %q outside %s", k, lock.NamespacePrefix)
		}
	}
}

func TestSemaphoreReclaimsExpiredPermits(t *testing.T) {
	ctx := context.Background()
	rs := testenv.StartRedisMasters(t, 3)
	opts := []lock.Option{lock.WithTTL(time.Second), lock.WithAnyTTL(), lock.WithRenewEvery(200 * time.Millisecond), lock.WithRetryDelay(50 * time.Millisecond)}
	s := newSemaphore(t, testenv.Clients(rs), "reclaim", 1, opts...)
	// A holder that dies: its context ends, so nothing renews and nothing releases.
	dying, die := context.WithCancel(ctx)
	if _, err := s.TryAcquire(dying); err != nil {
		t.Fatal(err)
	}
	die()
	if _, err := s.TryAcquire(ctx); !errors.Is(err, lock.ErrNoPermit) {
		t.Fatalf("permit of a dead holder was not counted before it expired: %v", err)
	}
	wait, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	p, err := s.Acquire(wait)
	if err != nil {
		t.Fatalf("expired permit was never reclaimed: %v", err)
	}
	if n, err := s.Count(ctx); err != nil || n != 1 {
		t.Fatalf("Count = %d, %v; want 1", n, err)
	}
	_ = p.Release(ctx)
}

func TestPermitLostWhenRemovedFromMajority(t *testing.T) {
	ctx := context.Background()
	rs := testenv.StartRedisMasters(t, 3)
	cs := testenv.Clients(rs)
	s := newSemaphore(t, cs, "lose", 2, lock.WithRenewEvery(200*time.Millisecond))
	p, err := s.TryAcquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The admission returns at a quorum; wait until the third write has landed too, so that
	// it cannot re-add the permit after the delete.
	testenv.Eventually(t, 10*time.Second, "the permit on every master", func() bool {
		for _, c := range cs {
			if c.ZScore(ctx, s.Key(), p.ID()).Err() != nil {
				return false
			}
		}
		return true
	})
	for _, c := range cs[1:] {
		c.Del(ctx, s.Key())
	}
	select {
	case <-p.Context().Done():
	case <-time.After(15 * time.Second):
		t.Fatal("permit context still live after the permit was removed from a majority")
	}
	if !errors.Is(p.Err(), lock.ErrLost) {
		t.Fatalf("Err = %v, want ErrLost", p.Err())
	}
}

// TestSemaphoreNeverExceedsLimit runs acquirers with their own clients (as separate replicas
// would) against three masters while one master is killed and later restarted empty, and checks
// that no more than limit holders are ever inside at once.
func TestSemaphoreNeverExceedsLimit(t *testing.T) {
	const (
		limit     = 3
		acquirers = 8
		run       = 4 * time.Second
	)
	rs := testenv.StartRedisMasters(t, 3)
	var inside, peak, admitted atomic.Int64
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), run)
	defer cancel()
	errs := make(chan error, acquirers)
	for i := range acquirers {
		s := newSemaphore(t, testenv.Clients(rs), "ceiling", limit, lock.WithRetryDelay(20*time.Millisecond))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				p, err := s.Acquire(ctx)
				if err != nil {
					if ctx.Err() == nil {
						errs <- err
						return
					}
					return
				}
				n := inside.Add(1)
				admitted.Add(1)
				for {
					old := peak.Load()
					if n <= old || peak.CompareAndSwap(old, n) {
						break
					}
				}
				time.Sleep(time.Duration(rand.IntN(20)) * time.Millisecond)
				inside.Add(-1)
				_ = p.Release(context.Background())
			}
			_ = i
		}()
	}
	time.Sleep(run / 3)
	rs[2].Kill()
	time.Sleep(run / 3)
	rs[2].Restart() // back without its permits
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("acquirer: %v", err)
	}
	t.Logf("admitted %d permits, at most %d inside at once (limit %d)", admitted.Load(), peak.Load(), limit)
	if peak.Load() > limit {
		t.Fatalf("%d holders inside a semaphore of %d", peak.Load(), limit)
	}
	if admitted.Load() < 20 {
		t.Fatalf("only %d admissions: too little to judge", admitted.Load())
	}
}

// holderCounter is the test process's view of who is inside: workers tell it when they enter
// and leave.
type holderCounter struct {
	mu     sync.Mutex
	inside map[string]bool
	peak   int
	enters int
}

func (h *holderCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	id := r.PostForm.Get("id")
	h.mu.Lock()
	defer h.mu.Unlock()
	switch r.URL.Path {
	case "/enter":
		h.inside[id] = true
		h.enters++
		h.peak = max(h.peak, len(h.inside))
	case "/leave":
		delete(h.inside, id)
	}
}

// TestSemaphoreLimitAcrossProcesses runs the semaphore in several processes (two acquirers
// each) with one master killed mid-run, and counts holders in the test process.
func TestSemaphoreLimitAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker processes")
	}
	const (
		limit   = 3
		workers = 3
		run     = 4 * time.Second
	)
	rs := testenv.StartRedisMasters(t, 3)
	hc := &holderCounter{inside: map[string]bool{}}
	srv := httptest.NewServer(hc)
	defer srv.Close()
	procs := startWorkers(t, workers, func(int) []string {
		return []string{
			workerSemEnv + "=" + strconv.Itoa(limit),
			workerMastersEnv + "=" + strings.Join(testenv.URLs(rs), ","),
			workerResourceEnv + "=" + srv.URL,
			workerRunEnv + "=" + run.String(),
		}
	})
	time.Sleep(run / 2)
	rs[0].Kill()
	waitWorkers(t, procs, run+60*time.Second)
	admitted := 0
	for i, p := range procs {
		var s semSummary
		if err := json.Unmarshal(p.stdout.Bytes(), &s); err != nil {
			t.Fatalf("worker %d summary %q: %v", i, p.stdout.String(), err)
		}
		admitted += s.Admitted
		t.Logf("worker %d: %+v", i, s)
	}
	hc.mu.Lock()
	defer hc.mu.Unlock()
	t.Logf("%d processes admitted %d permits; at most %d holders inside at once (limit %d)", workers, admitted, hc.peak, limit)
	if hc.peak > limit {
		t.Fatalf("%d holders inside a semaphore of %d", hc.peak, limit)
	}
	if hc.enters != admitted || admitted < 20 {
		t.Fatalf("resource saw %d entries, workers admitted %d (want at least 20)", hc.enters, admitted)
	}
}
