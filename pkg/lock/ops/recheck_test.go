package ops

import (
	"context"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/redisconn"
)

// waitRenewed waits until lease's validity moves past v, that is until its keeper renewed the
// lock on the masters.
func waitRenewed(t *testing.T, lease *lock.Lease, v time.Time) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !lease.Validity().After(v) {
		if time.Now().After(deadline) {
			t.Fatalf("the lease was not renewed (validity %v)", v)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestBreakRefusesARenewedLock: a real pkg/lock lease whose holder pod is taken for gone, renewed
// by its own keeper between the read and the break, is not broken, whether the renewal lands
// before the break's re-read (the client-side check) or between the re-read and the delete (the
// Lua re-check on the server).
func TestBreakRefusesARenewedLock(t *testing.T) {
	ctx := context.Background()
	_, ms := startMasters(t, 1)
	l, err := lock.New(redisconn.Clients(ms), lock.WithHost("web-renewing"), lock.WithNamespace("test"),
		lock.WithTTL(10*time.Second), lock.WithRenewEvery(time.Second), lock.WithFencing(false))
	must(t, err)
	const key = "redlock:renew:analysis_zip"
	lease, err := l.Acquire(ctx, key)
	must(t, err)
	defer lease.Release(ctx)
	got, _ := inspectAll(t, ms, Options{Keys: []string{key}, Pods: pods{"test/": true}})
	observed := got[key]
	if observed.Verdict.Rule != RuleHolderGone {
		t.Fatalf("verdict %+v, want holder-gone", observed.Verdict)
	}

	waitRenewed(t, lease, lease.Validity())
	rec, err := NewBreaker(ms, BreakOptions{}).Break(ctx, observed)
	if err != nil || rec.Deleted() != 0 || rec.Results[0].Result != ResultRenewed {
		t.Fatalf("renewed before the re-read: %+v, %v", rec, err)
	}

	b := NewBreaker(ms, BreakOptions{})
	b.r.resolve(ctx)
	now := b.r.fetch(ctx, []string{key})[0]
	waitRenewed(t, lease, lease.Validity())
	res := b.execute(ctx, now, now, "not-renewed")
	if res[0].Result != ResultRenewed {
		t.Fatalf("renewed between the re-read and the delete: %+v, want %s by the server's re-check", res[0], ResultRenewed)
	}
	if lease.Err() != nil || lease.Value() != mustGet(t, ms, key) {
		t.Fatalf("the lease was lost: %v", lease.Err())
	}
}

// TestBreakRecheckCountsTheTimeSinceTheRead: a TTL that fell by less than the time since the
// read was renewed, even when it is below the TTL read; one that was not renewed is deleted
// however long the break took to come.
func TestBreakRecheckCountsTheTimeSinceTheRead(t *testing.T) {
	ctx := context.Background()
	_, ms := startMasters(t, 1)
	c := ms[0].Client
	const key, value = "redlock:aged:analysis_zip", "osctl:v1:web-aged:7:abcdefghijklmnop:test"
	must(t, c.Set(ctx, key, value, 10*time.Second).Err())
	time.Sleep(300 * time.Millisecond) // the lock is 300 ms old when read
	b := NewBreaker(ms, BreakOptions{})
	b.r.resolve(ctx)
	now := b.r.fetch(ctx, []string{key})[0]
	// The holder renews (redsync's extend: PEXPIRE to the whole TTL), then 400 ms pass: the TTL
	// is below the one read, but above the one read minus the time since.
	must(t, c.PExpire(ctx, key, 10*time.Second).Err())
	time.Sleep(400 * time.Millisecond)
	if ttl := c.PTTL(ctx, key).Val().Milliseconds(); ttl >= now.Holdings[0].TTLMillis {
		t.Fatalf("TTL %d ms not below the %d ms read: the case this test is for did not happen", ttl, now.Holdings[0].TTLMillis)
	}
	if res := b.execute(ctx, now, now, "not-renewed"); res[0].Result != ResultRenewed {
		t.Fatalf("renewed 400 ms before the break: %+v, want %s", res[0], ResultRenewed)
	}
	// Not renewed: read, wait, break.
	now = b.r.fetch(ctx, []string{key})[0]
	time.Sleep(500 * time.Millisecond)
	if res := b.execute(ctx, now, now, "not-renewed"); res[0].Result != ResultDeleted {
		t.Fatalf("not renewed: %+v, want %s", res[0], ResultDeleted)
	}
}

func mustGet(t *testing.T, ms []redisconn.Master, key string) string {
	t.Helper()
	v, err := ms[0].Client.Get(context.Background(), key).Result()
	must(t, err)
	return v
}
