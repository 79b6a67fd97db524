package lock_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
)

func TestNewValidatesOptions(t *testing.T) {
	masters := []redis.UniversalClient{redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})}
	cases := []struct {
		name string
		ms   []redis.UniversalClient
		opts []lock.Option
		ok   bool
	}{
		{"defaults", masters, nil, true},
		{"no masters", nil, nil, false},
		{"ttl below minimum", masters, []lock.Option{lock.WithTTL(4 * time.Second)}, false},
		{"ttl above maximum", masters, []lock.Option{lock.WithTTL(31 * time.Second)}, false},
		{"ttl at bounds", masters, []lock.Option{lock.WithTTL(lock.MaxTTL)}, true},
		{"any ttl", masters, []lock.Option{lock.WithTTL(time.Second), lock.WithAnyTTL()}, true},
		{"negative ttl even with any", masters, []lock.Option{lock.WithTTL(-time.Second), lock.WithAnyTTL()}, false},
		{"renewal not shorter than ttl", masters, []lock.Option{lock.WithRenewEvery(10 * time.Second)}, false},
		{"zero tries", masters, []lock.Option{lock.WithTries(0)}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := lock.New(c.ms, c.opts...)
			if (err == nil) != c.ok {
				t.Fatalf("New: err=%v, want ok=%v", err, c.ok)
			}
		})
	}
}

// TestHolderNamespace: the namespace is recorded only for the pod the downward API names, and
// values without one (written before it was recorded) still parse, with no namespace.
func TestHolderNamespace(t *testing.T) {
	t.Setenv("POD_NAME", "web-7d9f-abcde")
	t.Setenv("POD_NAMESPACE", "openstudio")
	h := lock.NewHolder("")
	if h.Host != "web-7d9f-abcde" || h.Namespace != "openstudio" {
		t.Fatalf("NewHolder in a pod = %+v, want host web-7d9f-abcde in namespace openstudio", h)
	}
	if want := "osctl:v1:web-7d9f-abcde:" + strconv.Itoa(h.PID) + ":" + h.Random + ":openstudio"; h.String() != want {
		t.Fatalf("String() = %q, want %q", h.String(), want)
	}
	if got, ok := lock.ParseHolder(h.String()); !ok || got != h {
		t.Fatalf("ParseHolder(%q) = %+v, %v; want %+v", h.String(), got, ok, h)
	}
	if o := lock.NewHolder("resque-vm-7"); o.Namespace != "" {
		t.Errorf("a host that is not $POD_NAME got namespace %q", o.Namespace)
	}
	t.Setenv("POD_NAMESPACE", "")
	if o := lock.NewHolder(""); o.Namespace != "" || strings.Count(o.String(), ":") != 4 {
		t.Errorf("without POD_NAMESPACE: %+v (%s), want no namespace", o, o)
	}
	old, ok := lock.ParseHolder("osctl:v1:web-0:7:abc")
	if !ok || old.Namespace != "" || old.Host != "web-0" {
		t.Errorf("a value of before the namespace: %+v, %v", old, ok)
	}
}

func TestHolderValueRoundTrip(t *testing.T) {
	for _, host := range []string{"web-7d9f-abcde", "host:with:colons", ""} {
		h := lock.NewHolder(host)
		got, ok := lock.ParseHolder(h.String())
		if !ok || got != h {
			t.Fatalf("ParseHolder(%q) = %+v, %v; want %+v", h.String(), got, ok, h)
		}
		if h2 := lock.NewHolder(host); h2.Random == h.Random {
			t.Fatalf("two holders share the random part %q", h.Random)
		}
	}
	for _, v := range []string{"", "6f1c1a2e-0000-4000-8000-000000000000", "osctl:v1:host:notapid:abc", "osctl:v1:host:1", "osctl:v1::1:abc",
		"osctl:v1:web-0:1:abc:Not_A_Namespace", "osctl:v1:web-0:1:abc:", "osctl:v1:web-0:1:abc:ns:more"} {
		if _, ok := lock.ParseHolder(v); ok {
			t.Errorf("ParseHolder(%q) accepted a foreign value", v)
		}
	}
}

func newLocker(t testing.TB, masters []redis.UniversalClient, opts ...lock.Option) *lock.Locker {
	t.Helper()
	l, err := lock.New(masters, opts...)
	if err != nil {
		t.Fatalf("lock.New: %v", err)
	}
	return l
}

func TestAcquireContendRelease(t *testing.T) {
	ctx := context.Background()
	rs := testenv.StartRedisMasters(t, 3)
	cs := testenv.Clients(rs)
	a := newLocker(t, cs, lock.WithHost("pod-a"))
	b := newLocker(t, testenv.Clients(rs), lock.WithHost("pod-b"))
	key := lock.Key("an-1", "extract")

	lease, err := a.Acquire(ctx, key)
	if err != nil {
		t.Fatalf("Acquire: %v", err)
	}
	if h, ok := lock.ParseHolder(lease.Value()); !ok || h != lease.Holder() || h.Host != "pod-a" {
		t.Fatalf("lease value %q does not parse to its holder %+v", lease.Value(), lease.Holder())
	}
	if lease.Key() != key || lease.Err() != nil || lease.Token() < 1 {
		t.Fatalf("lease key=%q err=%v token=%d", lease.Key(), lease.Err(), lease.Token())
	}
	if !lease.Validity().After(time.Now()) {
		t.Fatalf("validity %v is not in the future", lease.Validity())
	}
	for i, c := range cs {
		v, err := c.Get(ctx, key).Result()
		if err != nil || v != lease.Value() {
			t.Fatalf("master %d holds %q (%v), want %q", i, v, err, lease.Value())
		}
		if ttl := c.PTTL(ctx, key).Val(); ttl <= 0 || ttl > lock.DefaultTTL {
			t.Fatalf("master %d: PTTL %v outside (0, %v]", i, ttl, lock.DefaultTTL)
		}
	}

	if _, err := b.TryAcquire(ctx, key); !errors.Is(err, lock.ErrNotAcquired) {
		t.Fatalf("TryAcquire of a held lock: err=%v, want ErrNotAcquired", err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	_, err = b.Acquire(short, key)
	cancel()
	if err == nil {
		t.Fatal("Acquire of a held lock succeeded")
	}

	if err := lease.Release(ctx); err != nil {
		t.Fatalf("Release: %v", err)
	}
	if !errors.Is(lease.Err(), context.Canceled) || lease.Context().Err() == nil {
		t.Fatalf("after release: Err=%v ctx=%v", lease.Err(), lease.Context().Err())
	}
	if err := lease.Release(ctx); err != nil {
		t.Fatalf("second Release: %v", err)
	}
	// Release returns once a quorum deleted; the last master may get its delete just after.
	for i, c := range cs {
		testenv.Eventually(t, 5*time.Second, fmt.Sprintf("master %d to drop the key after release", i), func() bool {
			return c.Exists(ctx, key).Val() == 0
		})
	}
	l2, err := b.TryAcquire(ctx, key)
	if err != nil {
		t.Fatalf("TryAcquire after release: %v", err)
	}
	if l2.Token() <= lease.Token() {
		t.Fatalf("token %d after token %d", l2.Token(), lease.Token())
	}
	_ = l2.Release(ctx)
}

func TestReleaseKeepsAnotherHoldersValue(t *testing.T) {
	ctx := context.Background()
	rs := testenv.StartRedisMasters(t, 3)
	cs := testenv.Clients(rs)
	l := newLocker(t, cs, lock.WithFencing(false))
	key := lock.Key("an-2", "upload")
	lease, err := l.Acquire(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	// The lock expired and another holder took it on every master.
	other := lock.NewHolder("someone-else").String()
	for _, c := range cs {
		c.Set(ctx, key, other, 10*time.Second)
	}
	err = lease.Release(ctx)
	if !errors.Is(err, lock.ErrLost) {
		t.Fatalf("Release over another holder's value: err=%v, want ErrLost", err)
	}
	for i, c := range cs {
		if v := c.Get(ctx, key).Val(); v != other {
			t.Fatalf("master %d: release removed another holder's value (now %q)", i, v)
		}
	}
}

func TestReleaseDeletesOnMasterThatMissedAcquisition(t *testing.T) {
	ctx := context.Background()
	rs := testenv.StartRedisMasters(t, 3)
	cs := testenv.Clients(rs)
	l := newLocker(t, cs, lock.WithFencing(false))
	key := lock.Key("an-3", "zip")
	rs[2].Kill()
	lease, err := l.Acquire(ctx, key)
	if err != nil {
		t.Fatalf("Acquire with 2 of 3 masters: %v", err)
	}
	rs[2].Restart()
	// The third master took the SET late (it was slow, not down, as far as the lock knows).
	cs[2].Set(ctx, key, lease.Value(), 10*time.Second)
	if err := lease.Release(ctx); err != nil {
		t.Fatalf("Release: %v", err)
	}
	// Release returns once a quorum deleted; the third master gets its delete in the background
	// (after its restart, a first connection and a script load), bounded by the release timeout.
	for i, c := range cs {
		testenv.Eventually(t, 5*time.Second, fmt.Sprintf("master %d to drop the key", i), func() bool {
			return c.Exists(ctx, key).Val() == 0
		})
	}
}

func TestRenewalKeepsLockPastTTL(t *testing.T) {
	ctx := context.Background()
	rs := testenv.StartRedisMasters(t, 3)
	cs := testenv.Clients(rs)
	ttl := 1500 * time.Millisecond
	l := newLocker(t, cs, lock.WithTTL(ttl), lock.WithAnyTTL(), lock.WithRenewEvery(250*time.Millisecond))
	other := newLocker(t, cs, lock.WithTTL(ttl), lock.WithAnyTTL())
	key := lock.Key("an-4", "renew")
	lease, err := l.Acquire(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	first := lease.Validity()
	time.Sleep(2*ttl + 500*time.Millisecond)
	if err := lease.Err(); err != nil {
		t.Fatalf("lease lost while renewing: %v", err)
	}
	if !lease.Validity().After(first) {
		t.Fatalf("validity did not move: %v then %v", first, lease.Validity())
	}
	for i, c := range cs {
		if v := c.Get(ctx, key).Val(); v != lease.Value() {
			t.Fatalf("master %d: lock gone after 2 TTLs despite renewal (value %q)", i, v)
		}
	}
	if _, err := other.TryAcquire(ctx, key); !errors.Is(err, lock.ErrNotAcquired) {
		t.Fatalf("renewed lock was taken by another holder: %v", err)
	}
	if err := lease.Release(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestRenewalEndsWithAcquireContext(t *testing.T) {
	rs := testenv.StartRedisMasters(t, 1)
	cs := testenv.Clients(rs)
	ttl := time.Second
	l := newLocker(t, cs, lock.WithTTL(ttl), lock.WithAnyTTL(), lock.WithRenewEvery(200*time.Millisecond), lock.WithFencing(false))
	key := lock.Key("an-5", "ctx")
	ctx, cancel := context.WithCancel(context.Background())
	lease, err := l.Acquire(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	<-lease.Context().Done()
	if !errors.Is(lease.Err(), context.Canceled) || errors.Is(lease.Err(), lock.ErrLost) {
		t.Fatalf("Err after the acquisition context ended: %v", lease.Err())
	}
	// Nothing renews any more: the key expires by itself.
	testenv.Eventually(t, 20*time.Second, "the key to expire once renewal stopped", func() bool {
		return cs[0].Exists(context.Background(), key).Val() == 0
	})
}

func TestAcquireFailsWithoutQuorum(t *testing.T) {
	ctx := context.Background()
	rs := testenv.StartRedisMasters(t, 3)
	rs[0].Kill()
	rs[1].Kill()
	cs := fastClients(t, rs)
	l := newLocker(t, cs, lock.WithTries(2), lock.WithRetryDelay(10*time.Millisecond))
	if _, err := l.Acquire(ctx, lock.Key("an-6", "q")); !errors.Is(err, lock.ErrNotAcquired) {
		t.Fatalf("Acquire with 1 of 3 masters: err=%v, want ErrNotAcquired", err)
	}
	testenv.Eventually(t, 5*time.Second, "the failed acquisition's value to leave the surviving master", func() bool {
		return cs[2].Exists(ctx, lock.Key("an-6", "q")).Val() == 0
	})
}

// fastClients returns clients that give up on a dead master at once (go-redis retries dialing
// 5 times by default) and honour context deadlines, as docs/locking.md recommends; tests that
// kill masters use them so that a refused connection does not cost half a second a call.
func fastClients(t testing.TB, rs []*testenv.Redis) []redis.UniversalClient {
	cs := make([]redis.UniversalClient, len(rs))
	for i, r := range rs {
		c := redis.NewClient(&redis.Options{Addr: r.Addr, DialerRetries: 1, MaxRetries: -1, ContextTimeoutEnabled: true})
		t.Cleanup(func() { _ = c.Close() })
		cs[i] = c
	}
	return cs
}
