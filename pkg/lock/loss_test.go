package lock_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
)

// TestHolderToldAtOnceWhenRenewalFails covers the ways a held lock is lost: its value removed from
// a majority, a majority of masters gone, and a majority that stops answering until the
// validity runs out. Each time the lease's context must be cancelled with ErrLost.
func TestHolderToldAtOnceWhenRenewalFails(t *testing.T) {
	cases := []struct {
		name      string
		ttl       time.Duration
		paused    bool
		breakLock func(t *testing.T, rs []*testenv.Redis, key string)
	}{
		{"value deleted on a majority", lock.MinTTL, false, func(t *testing.T, rs []*testenv.Redis, key string) {
			for _, r := range rs[:2] {
				if err := r.Client().Del(context.Background(), key).Err(); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"two of three masters killed", lock.MinTTL, false, func(t *testing.T, rs []*testenv.Redis, key string) {
			rs[0].Kill()
			rs[2].Kill()
		}},
		{"majority paused past the validity", 1500 * time.Millisecond, true, func(t *testing.T, rs []*testenv.Redis, key string) {
			for _, r := range rs[1:] {
				if err := r.Client().Do(context.Background(), "CLIENT", "PAUSE", "20000", "ALL").Err(); err != nil {
					t.Fatal(err)
				}
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			rs := testenv.StartRedisMasters(t, 3)
			// Default clients for the paused case: they ignore context deadlines, so the
			// watchdog at the validity's end has to tell the holder, not the renewal's answer.
			cs := fastClients(t, rs)
			if c.paused {
				cs = testenv.Clients(rs)
			}
			l := newLocker(t, cs, lock.WithTTL(c.ttl), lock.WithAnyTTL(), lock.WithRenewEvery(200*time.Millisecond))
			key := lock.Key("an-loss", "step")
			lease, err := l.Acquire(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			if err := lease.Err(); err != nil {
				t.Fatalf("fresh lease: %v", err)
			}
			c.breakLock(t, rs, key)
			select {
			case <-lease.Context().Done():
			case <-time.After(c.ttl + 10*time.Second):
				t.Fatalf("lease context still live after its lock was broken (validity %v)", lease.Validity())
			}
			if !errors.Is(lease.Err(), lock.ErrLost) {
				t.Fatalf("Err() = %v, want ErrLost", lease.Err())
			}
			if !errors.Is(context.Cause(lease.Context()), lock.ErrLost) {
				t.Fatalf("context cause = %v, want ErrLost", context.Cause(lease.Context()))
			}
			t.Logf("told: %v", lease.Err())
			if err := lease.Release(ctx); !errors.Is(err, lock.ErrLost) {
				t.Fatalf("Release after loss: %v, want ErrLost", err)
			}
		})
	}
}

// TestWithoutRenewalLeaseRunsOut: a lease of a Locker made WithoutRenewal is never extended (the
// key's TTL only falls), ends with ErrLost when its validity runs out, and Release says so;
// another holder can take the key then.
func TestWithoutRenewalLeaseRunsOut(t *testing.T) {
	ctx := context.Background()
	cs := testenv.Clients(testenv.StartRedisMasters(t, 3))
	ttl := 600 * time.Millisecond
	a := newLocker(t, cs, lock.WithTTL(ttl), lock.WithAnyTTL(), lock.WithFencing(false), lock.WithoutRenewal())
	key := lock.Key("an-1", "zip")
	lease, err := a.Acquire(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	valid := lease.Validity()
	time.Sleep(ttl / 2) // past when a renewing lease would have been extended (TTL/3)
	if pttl := cs[0].PTTL(ctx, key).Val(); pttl > ttl/2+50*time.Millisecond {
		t.Fatalf("PTTL %v half a TTL in: the lease was extended", pttl)
	}
	select {
	case <-lease.Context().Done():
	case <-time.After(10 * ttl):
		t.Fatal("the lease's context was not cancelled when its validity ran out")
	}
	if !errors.Is(lease.Err(), lock.ErrLost) || !lease.Validity().Equal(valid) {
		t.Fatalf("lease err %v, validity %v (was %v): want ErrLost and an unmoved validity", lease.Err(), lease.Validity(), valid)
	}
	b := newLocker(t, cs, lock.WithTTL(ttl), lock.WithAnyTTL())
	other, err := b.Acquire(ctx, key)
	if err != nil {
		t.Fatalf("another holder could not take the run-out lease's key: %v", err)
	}
	if err := lease.Release(ctx); !errors.Is(err, lock.ErrLost) {
		t.Fatalf("Release of a run-out lease: %v, want ErrLost", err)
	}
	if v := cs[0].Get(ctx, key).Val(); v != other.Value() {
		t.Fatalf("the run-out lease's Release removed the new holder's lock (key holds %q)", v)
	}
	_ = other.Release(ctx)
}
