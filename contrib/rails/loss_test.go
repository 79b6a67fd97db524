package rails_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
)

// lossMargin is added to "within one TTL": the time the Go side and the Ruby process need to be
// scheduled on a loaded 2-core machine, not part of the module's own bound.
const lossMargin = 3 * time.Second

// pauseFor is how long the paused masters stop answering: longer than it takes to lose the lock.
const pauseFor = 8 * time.Second

// TestRubyLossStopsTheBlock takes a lock on 3 masters with the Ruby module (TTL 5 s), whose block
// writes a tick every 50 ms, never checks the lease and swallows every StandardError. Then 2
// masters are stopped: killed (renewals are refused) or paused (renewals hang). OsctlLock::Lost
// reaches the block within one TTL, no tick is written after it, and once the masters are back
// nothing is left held: pkg/lock takes the key at once.
func TestRubyLossStopsTheBlock(t *testing.T) {
	const ttl = 5 * time.Second
	for _, mode := range []string{"killed", "paused"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			masters := testenv.StartRedisMasters(t, 3)
			urls := testenv.URLs(masters)
			key := lock.Key("loss-"+mode, "analysis_zip")
			ticks := filepath.Join(t.TempDir(), "ticks")
			rb := startDriver(t, "hold", "OSCTL_URLS="+strings.Join(urls, ","), "KEY="+key, "TTL=5", "TICKS_FILE="+ticks)
			rb.waitFor("held", 30*time.Second)
			time.Sleep(300 * time.Millisecond) // some ticks first

			stopped := monoNow(t)
			switch mode {
			case "killed":
				masters[0].Kill()
				masters[1].Kill()
			case "paused":
				for _, m := range masters[:2] {
					// Long enough for the loss; the masters answer again by themselves afterwards.
					if err := m.Client().Do(ctx, "CLIENT", "PAUSE", strconv.Itoa(int(pauseFor/time.Millisecond)), "ALL").Err(); err != nil {
						t.Fatal(err)
					}
				}
			}
			lost := rb.next(ttl + 20*time.Second)
			if lost.str("event") != "lost" {
				t.Fatalf("got %v, want the block stopped by OsctlLock::Lost", lost)
			}
			after := time.Duration(lost.num("at") - stopped)
			t.Logf("%s: Lost %v after 2 of 3 masters were %s: %s", mode, after.Round(time.Millisecond), mode, lost.str("message"))
			if after > ttl+lossMargin {
				t.Errorf("Lost reached the block %v after the masters were %s, want within the TTL %v (+%v margin)", after, mode, ttl, lossMargin)
			}
			if lost["lost"] != true {
				t.Errorf("lease.lost? is %v after Lost", lost["lost"])
			}
			n0 := countTicks(t, ticks, lost.num("at"))
			time.Sleep(time.Second)
			if n1 := countTicks(t, ticks, lost.num("at")); n1 != n0 || n0 == 0 {
				t.Errorf("ticks went from %d to %d after Lost (want no write after it, and some before)", n0, n1)
			}
			if code := rb.exitCode(10 * time.Second); code != 0 {
				t.Errorf("driver exit %d", code)
			}

			// The masters come back: restarted empty (as after a crash without persistence), or
			// at the end of their pause, with the key expiring then (a pause stops expiry too).
			if mode == "killed" {
				masters[0].Restart()
				masters[1].Restart()
			}
			for i, c := range testenv.Clients(masters) {
				testenv.WaitFor(t, pauseFor+ttl+lossMargin, "no "+key+" on master "+strconv.Itoa(i), func() (bool, error) {
					n, err := c.Exists(ctx, key).Result()
					return err == nil && n == 0, nil
				})
			}
			mustTake(t, ctx, testenv.Clients(masters), ttl, key, "the key after the loss")
		})
	}
}

// mustTake fails the test unless pkg/lock takes key on clients at once (then it releases it);
// what names the key in the failure.
func mustTake(t *testing.T, ctx context.Context, clients []redis.UniversalClient, ttl time.Duration, key, what string) {
	t.Helper()
	l, err := lock.New(clients, lock.WithTTL(ttl))
	if err != nil {
		t.Fatal(err)
	}
	lease, err := l.TryAcquire(ctx, key)
	if err != nil {
		t.Fatalf("pkg/lock cannot take %s: %v", what, err)
	}
	_ = lease.Release(ctx)
}

// countTicks counts the tick lines and fails on any stamped after lostAt.
func countTicks(t *testing.T, path string, lostAt int64) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		n++
		if at, _ := strconv.ParseInt(f[2], 10, 64); at > lostAt {
			t.Errorf("a tick was written %v after Lost: %q", time.Duration(at-lostAt), line)
		}
	}
	return n
}

// TestRubyCrashLeavesAnExpiringLock kills a Ruby holder (TTL 5 s) with SIGKILL: its lock stays
// until its TTL, then expires by itself, and pkg/lock takes the key. A lock without a TTL written
// by hand in the holder format is reported stale by `osctl locks inspect`.
func TestRubyCrashLeavesAnExpiringLock(t *testing.T) {
	t.Parallel()
	const ttl = 5 * time.Second
	testenv.OsctlBinary(t) // built before the holder starts: the build can take minutes on a busy machine
	ctx := context.Background()
	masters := testenv.StartRedisMasters(t, 3)
	urls := testenv.URLs(masters)
	clients := testenv.Clients(masters)
	key := lock.Key("crash-5d1c", "analysis_zip")
	rb := startDriver(t, "hold", "OSCTL_URLS="+strings.Join(urls, ","), "KEY="+key, "TTL=5")
	value := rb.waitFor("held", 30*time.Second).str("value")

	if err := syscall.Kill(rb.g.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	rb.exitCode(10 * time.Second)
	killed := time.Now()
	held := 0
	for _, c := range clients {
		if v, _ := c.Get(ctx, key).Result(); v == value {
			held++
		}
	}
	if held < 2 {
		t.Fatalf("right after kill -9 the lock is on %d masters: it was released, not left to expire", held)
	}
	for i, c := range clients {
		testenv.WaitFor(t, ttl+lossMargin, "the killed holder's lock to expire on master "+strconv.Itoa(i), func() (bool, error) {
			n, err := c.Exists(ctx, key).Result()
			return n == 0, err
		})
	}
	t.Logf("the killed holder's lock expired %v after kill -9 (TTL %v)", time.Since(killed).Round(100*time.Millisecond), ttl)
	mustTake(t, ctx, clients, ttl, key, "the expired key")

	// A stale lock without TTL, written by hand in the holder format.
	stale := lock.Key("crash-5d1c", "extract")
	for _, c := range clients {
		if err := c.Set(ctx, stale, "osctl:v1:openstudio-web-gone:41:abcdefghijklmnop", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	r, code := inspectJSON(t, urls, "--retry-window", "100ms")
	if code != 1 || r.Stale != 1 || len(r.Locks) != 1 {
		t.Fatalf("inspect: exit %d, %d stale, %+v; want exit 1 and the lock without TTL stale", code, r.Stale, r.Locks)
	}
	if v := r.Locks[0]; v.Key != stale || v.Verdict.Status != "stale" || v.Verdict.Rule != "no-ttl" || v.Holder == nil || v.Holder.Host != "openstudio-web-gone" {
		t.Fatalf("inspect shows %+v, want %s stale by no-ttl, held by openstudio-web-gone", v, stale)
	}
}
