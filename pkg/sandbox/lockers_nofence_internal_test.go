package sandbox

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

// TestRedlockRbLeaseRunsOutWhileHeld: the lease of redlock-nofence is redlock-rb's, on real
// Redis masters: never renewed, so a second replica takes the lock while the first still holds
// it; the first's work is not stopped (its context lives on, even after its request ended), its
// unlock says the lease expired while held and leaves the new holder's lock alone.
func TestRedlockRbLeaseRunsOutWhileHeld(t *testing.T) {
	masters := testenv.Clients(testenv.StartRedisMasters(t, 3))
	var mu sync.Mutex
	var logs []string
	cfg := Config{Masters: masters, LockTTL: time.Second, Host: "test",
		Logf: func(f string, a ...any) { mu.Lock(); logs = append(logs, fmt.Sprintf(f, a...)); mu.Unlock() }}
	first, err := newRedlockRbLocks(cfg)
	if err != nil {
		t.Fatal(err)
	}
	second, err := newRedlockRbLocks(cfg)
	if err != nil {
		t.Fatal(err)
	}

	reqCtx, endRequest := context.WithCancel(context.Background())
	workCtx, unlockFirst, err := first.lock(reqCtx, "a1", "upload")
	if err != nil {
		t.Fatal(err)
	}
	// The first holder never unlocks before the second acquires: only the TTL can free the lock.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, unlockSecond, err := second.lock(ctx, "a1", "upload")
	if err != nil {
		t.Fatalf("a second holder could not take a lock whose holder stalled past the TTL: %v", err)
	}
	endRequest()
	if workCtx.Err() != nil {
		t.Fatalf("the first holder's work was stopped (%v): redlock-rb does not tell it", workCtx.Err())
	}
	unlockFirst()
	key := lockKey("a1", zipStep)
	held := 0
	for _, m := range masters {
		if n, err := m.Exists(context.Background(), key).Result(); err == nil && n == 1 {
			held++
		}
	}
	if held < 2 {
		t.Errorf("the stale holder's unlock removed the new holder's lock: %s held on %d of 3 masters", key, held)
	}
	mu.Lock()
	got := strings.Join(logs, "\n")
	mu.Unlock()
	if !strings.Contains(got, "LOCK EXPIRED WHILE HELD "+key) {
		t.Errorf("logs %q: want the first holder's lease said expired while held", got)
	}
	unlockSecond()
	for _, m := range masters {
		if n, _ := m.Exists(context.Background(), key).Result(); n != 0 {
			t.Errorf("%s left on a master after both unlocks", key)
		}
	}
}
