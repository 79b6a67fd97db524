package lock_test

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
)

func TestFencingTokensIncreaseAcrossLockers(t *testing.T) {
	ctx := context.Background()
	rs := testenv.StartRedisMasters(t, 3)
	lockers := []*lock.Locker{newLocker(t, testenv.Clients(rs)), newLocker(t, testenv.Clients(rs))}
	key := lock.Key("an-f", "extract")
	var last int64
	for i := range 20 {
		lease, err := lockers[i%2].Acquire(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if lease.Token() <= last {
			t.Fatalf("acquisition %d got token %d after %d", i, lease.Token(), last)
		}
		last = lease.Token()
		if err := lease.Release(ctx); err != nil {
			t.Fatal(err)
		}
	}
	atLast := 0
	for i, c := range testenv.Clients(rs) {
		v, err := c.Get(ctx, lock.FenceKey(key)).Int64()
		if err != nil || v > last {
			t.Fatalf("master %d: counter %s = %d (%v), above the last token %d", i, lock.FenceKey(key), v, err, last)
		}
		if v == last {
			atLast++
		}
	}
	if atLast < lock.Quorum(3) {
		t.Fatalf("the last token %d is on %d masters, want a quorum", last, atLast)
	}

	off := newLocker(t, testenv.Clients(rs), lock.WithFencing(false))
	lease, err := off.Acquire(ctx, lock.Key("an-f", "nofence"))
	if err != nil {
		t.Fatal(err)
	}
	if lease.Token() != 0 {
		t.Fatalf("token %d with fencing off", lease.Token())
	}
	_ = lease.Release(ctx)
	if n := testenv.Clients(rs)[0].Exists(ctx, lock.FenceKey(lock.Key("an-f", "nofence"))).Val(); n != 0 {
		t.Fatal("fencing off still wrote a counter")
	}
}

// TestFencingCounters551 is the example: counters 5, 5, 1 on three masters, and
// acquisitions that each reach a different majority. INCR on the reachable majority hands out
// 6, 7, 7; the read-max-then-set-if-greater scheme must hand out strictly increasing tokens.
func TestFencingCounters551(t *testing.T) {
	ctx := context.Background()
	// Counters must survive a restart (the docs require appendfsync always).
	rs := testenv.StartRedisMasters(t, 3, testenv.WithArgs("--appendonly", "yes", "--appendfsync", "always"))
	cs := fastClients(t, rs)
	key := lock.Key("an-551", "extract")
	fk := lock.FenceKey(key)
	naive := "osctl:test:naive-incr"
	for i, v := range []int{5, 5, 1} {
		cs[i].Set(ctx, fk, v, 0)
		cs[i].Set(ctx, naive, v, 0)
	}
	l := newLocker(t, cs, lock.WithTries(3))

	var tokens, naiveTokens []int64
	// Each round, one master is down: the first round reaches {0,1}, then {1,2}, then {0,2}, ...
	for round, down := range []int{2, 0, 1, 2, 0, 1} {
		rs[down].Kill()
		lease, err := l.Acquire(ctx, key)
		if err != nil {
			t.Fatalf("round %d (master %d down): %v", round, down, err)
		}
		tokens = append(tokens, lease.Token())
		if err := lease.Release(ctx); err != nil {
			t.Fatalf("round %d release: %v", round, err)
		}
		naiveTokens = append(naiveTokens, naiveIncr(ctx, cs, naive, down))
		rs[down].Restart()
	}
	t.Logf("tokens %v; INCR on the reachable majority would give %v", tokens, naiveTokens)
	for i := 1; i < len(tokens); i++ {
		if tokens[i] <= tokens[i-1] {
			t.Fatalf("tokens not strictly increasing: %v", tokens)
		}
	}
	if tokens[0] != 6 {
		t.Fatalf("first token %d, want 6 (max of 5,5 plus one)", tokens[0])
	}
	repeated := false
	for i := 1; i < len(naiveTokens); i++ {
		repeated = repeated || naiveTokens[i] <= naiveTokens[i-1]
	}
	if !repeated {
		t.Fatalf("control: the naive INCR scheme gave increasing tokens %v; the scenario does not exercise the bug", naiveTokens)
	}
}

// naiveIncr is the broken scheme the issue warns about: INCR wherever it answers, keep the largest.
func naiveIncr(ctx context.Context, cs []redis.UniversalClient, key string, down int) int64 {
	var best int64
	for i, c := range cs {
		if i == down {
			continue // it would not answer
		}
		if v, err := c.Incr(ctx, key).Result(); err == nil && v > best {
			best = v
		}
	}
	return best
}
