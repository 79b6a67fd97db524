package ops

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/redisconn"
)

// Lock values of the shape of osctl's own (a string with no TTL is a lock only with such a value).
const (
	lockV  = "osctl:v1:web-0:1:vvvvvvvvvvvvvvvv"
	lockV1 = "osctl:v1:web-0:1:1111111111111111"
	lockV2 = "osctl:v1:web-1:2:2222222222222222"
)

// observe returns Inspect's view of one key.
func observe(t *testing.T, ms []redisconn.Master, key string, window time.Duration) (View, bool) {
	t.Helper()
	got, _ := inspectAll(t, ms, Options{Keys: []string{key}, RetryWindow: window})
	v, ok := got[key]
	return v, ok
}

func TestBreakNoTTLAndAudit(t *testing.T) {
	ctx := context.Background()
	_, ms := startMasters(t, 3)
	for _, m := range ms[:2] {
		must(t, m.Client.Set(ctx, "redlock:n:x", lockV, 0).Err())
	}
	must(t, ms[2].Client.Set(ctx, "redlock:n:x", lockV, 9*time.Second).Err())
	v, _ := observe(t, ms, "redlock:n:x", time.Second)
	if v.Verdict.Rule != RuleNoTTL {
		t.Fatalf("verdict %+v", v.Verdict)
	}
	// Dry run changes nothing.
	rec, err := NewBreaker(ms, BreakOptions{DryRun: true, Audit: true}).Break(ctx, v)
	if err != nil || rec.Outcome != OutcomeDryRun || rec.Results[0].Result != ResultWouldDelete || rec.Audit != nil {
		t.Fatalf("dry run: %+v %v", rec, err)
	}
	if n, _ := ms[0].Client.Exists(ctx, "redlock:n:x", AuditStream).Result(); n != 1 {
		t.Fatalf("dry run changed something")
	}
	rec, err = NewBreaker(ms, BreakOptions{Audit: true, Who: "sre@host"}).Break(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{ResultDeleted, ResultDeleted, ResultKept}
	for i, r := range rec.Results {
		if r.Result != want[i] {
			t.Errorf("master %d: %s, want %s", i, r.Result, want[i])
		}
	}
	if rec.Outcome != OutcomeBroken || rec.Deleted() != 2 || len(rec.Masters) != 3 {
		t.Errorf("record %+v", rec)
	}
	if n, _ := ms[2].Client.Exists(ctx, "redlock:n:x").Result(); n != 1 {
		t.Errorf("the copy with a TTL was deleted")
	}
	for i, m := range ms {
		entries, err := ReadAudit(ctx, m.Client, "", 10)
		if err != nil || len(entries) != 1 {
			t.Fatalf("audit on master %d: %v %v", i, entries, err)
		}
		e := entries[0]
		if e["who"] != "sre@host" || e["key"] != "redlock:n:x" || e["value"] != lockV || e["rule"] != "no-ttl" || !strings.Contains(e["results"].(string), "deleted") {
			t.Errorf("audit entry %v", e)
		}
		if rec.Audit[i].Result != ResultAppended {
			t.Errorf("audit result %+v", rec.Audit[i])
		}
	}
}

func TestBreakRefusesRenewedChangedAndLive(t *testing.T) {
	ctx := context.Background()
	_, ms := startMasters(t, 1)
	c := ms[0].Client
	b := NewBreaker(ms, BreakOptions{})

	// Observed without TTL, renewed before the break: the server-side check refuses.
	must(t, c.Set(ctx, "redlock:r:renewed", lockV, 0).Err())
	v, _ := observe(t, ms, "redlock:r:renewed", time.Second)
	must(t, c.PExpire(ctx, "redlock:r:renewed", 9*time.Second).Err())
	rec, _ := b.Break(ctx, v)
	if rec.Outcome != OutcomeRefused || rec.Deleted() != 0 {
		t.Errorf("renewed lock: %+v", rec)
	}
	// The script alone (as if the renewal came between re-read and delete) refuses too.
	if n, _ := breakScript.Run(ctx, c, []string{"redlock:r:renewed"}, lockV, "no-ttl", "0").Int(); n != -4 {
		t.Errorf("script on a renewed lock returned %d", n)
	}
	// Observed, then re-acquired with another value: refused (value changed).
	must(t, c.Set(ctx, "redlock:r:changed", lockV1, 0).Err())
	v, _ = observe(t, ms, "redlock:r:changed", time.Second)
	must(t, c.Set(ctx, "redlock:r:changed", lockV2, 0).Err())
	rec, _ = b.Break(ctx, v)
	if rec.Deleted() != 0 || rec.Results[0].Result != ResultChanged {
		t.Errorf("re-acquired lock: %+v", rec)
	}
	if n, _ := breakScript.Run(ctx, c, []string{"redlock:r:changed"}, lockV1, "value", "0").Int(); n != -3 {
		t.Errorf("script on a changed value returned %d", n)
	}
	// A minority lock renewed after the re-read: not-renewed refuses it.
	must(t, c.Set(ctx, "redlock:r:min", lockV, 5*time.Second).Err())
	if n, _ := breakScript.Run(ctx, c, []string{"redlock:r:min"}, lockV, "not-renewed", "100").Int(); n != -4 {
		t.Errorf("not-renewed on a TTL pushed back returned %d", n)
	}
	// Live: refused unless forced; a hash: refused even when forced.
	must(t, c.Set(ctx, "redlock:r:live", "L", 9*time.Second).Err())
	v, _ = observe(t, ms, "redlock:r:live", time.Second)
	rec, _ = b.Break(ctx, v)
	if rec.Outcome != OutcomeRefused || !strings.Contains(rec.Reason, "{Force}") {
		t.Errorf("live lock: %+v", rec)
	}
	rec, _ = NewBreaker(ms, BreakOptions{Force: true}).Break(ctx, v)
	if rec.Outcome != OutcomeBroken {
		t.Errorf("forced: %+v", rec)
	}
	must(t, c.HSet(ctx, "redlock:r:hash", "a", "b").Err())
	v, _ = observe(t, ms, "redlock:r:hash", time.Second)
	rec, _ = NewBreaker(ms, BreakOptions{Force: true}).Break(ctx, v)
	if rec.Outcome != OutcomeRefused || c.Exists(ctx, "redlock:r:hash").Val() != 1 {
		t.Errorf("forced hash: %+v", rec)
	}
}

func TestBreakMinorityDebrisOnThreeMasters(t *testing.T) {
	ctx := context.Background()
	_, ms := startMasters(t, 3)
	must(t, ms[1].Client.Set(ctx, "redlock:d:x", lockV, 9*time.Second).Err())
	v, _ := observe(t, ms, "redlock:d:x", 20*time.Millisecond)
	if v.Verdict.Rule != RuleMinority || v.Verdict.Status != StatusStale {
		t.Fatalf("%+v", v.Verdict)
	}
	rec, err := NewBreaker(ms, BreakOptions{}).Break(ctx, v)
	if err != nil || rec.Outcome != OutcomeBroken || rec.Results[1].Result != ResultDeleted {
		t.Fatalf("%+v %v", rec, err)
	}
	// Minority observed, but the acquisition completed before the break: refused.
	must(t, ms[1].Client.Set(ctx, "redlock:d:y", "W", 9*time.Second).Err())
	v, _ = observe(t, ms, "redlock:d:y", 20*time.Millisecond)
	must(t, ms[0].Client.Set(ctx, "redlock:d:y", "W", 9*time.Second).Err())
	rec, _ = NewBreaker(ms, BreakOptions{}).Break(ctx, v)
	if rec.Outcome != OutcomeRefused || ms[1].Client.Exists(ctx, "redlock:d:y").Val() != 1 {
		t.Fatalf("completed acquisition broken: %+v", rec)
	}
}

// TestBreakNeverRemovesALiveLock runs the whole pipeline (Inspect, then Break with its re-read
// and server-side check) 10,000 times against a holder that keeps re-acquiring and renewing.
// The holder writes its value without a TTL first and sets the TTL right after (a two-step
// acquisition, the only moment the lock looks stale), then renews it twice and releases it.
// The breaker may take the lock only in that no-TTL moment: the test fails if the holder ever
// loses a lock that had a TTL, and checks that every deletion the breaker reports is one the
// holder saw in the no-TTL moment.
func TestBreakNeverRemovesALiveLock(t *testing.T) {
	const iterations = 10000
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	_, ms := startMasters(t, 1)
	c := ms[0].Client
	key := "redlock:race:extract"
	setTTL := redis.NewScript(`if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`)
	release := redis.NewScript(`if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`)

	var (
		stop          atomic.Bool
		lostNoTTL     atomic.Int64 // lost in the no-TTL moment: a legitimate break
		lostLive      atomic.Int64 // lost while it had a TTL: the breaker removed a live lock
		cycles        atomic.Int64
		holderErr     error
		wg            sync.WaitGroup
		breakerDelete int64
		refusals      = map[string]int{}
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			val := "osctl:v1:web-0:1:" + strconv36(i)
			if err := c.Set(ctx, key, val, 0).Err(); err != nil {
				holderErr = err
				return
			}
			if i%64 == 0 {
				time.Sleep(200 * time.Microsecond) // a slower acquisition now and then
			}
			if n, err := setTTL.Run(ctx, c, []string{key}, val, 10000).Int(); err != nil {
				holderErr = err
				return
			} else if n == 0 {
				lostNoTTL.Add(1)
				continue
			}
			for r := 0; r < 2; r++ { // renewals
				if n, err := setTTL.Run(ctx, c, []string{key}, val, 10000).Int(); err != nil {
					holderErr = err
					return
				} else if n == 0 {
					lostLive.Add(1)
				}
			}
			if n, err := release.Run(ctx, c, []string{key}, val).Int(); err != nil {
				holderErr = err
				return
			} else if n == 0 {
				lostLive.Add(1)
			}
			cycles.Add(1)
		}
	}()

	b := NewBreaker(ms, BreakOptions{})
	for i := 0; i < iterations && ctx.Err() == nil; i++ {
		var seen []View
		_, err := Inspect(ctx, ms, Options{Keys: []string{key}}, func(v View) error { seen = append(seen, v); return nil })
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range seen {
			if v.Verdict.Status != StatusStale {
				continue
			}
			rec, err := b.Break(ctx, v)
			if err != nil {
				t.Fatal(err)
			}
			breakerDelete += int64(rec.Deleted())
			for _, r := range rec.Results {
				refusals[r.Result]++
			}
			if rec.Outcome == OutcomeRefused {
				refusals["refused-on-re-read"]++
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	if holderErr != nil {
		t.Fatal(holderErr)
	}
	t.Logf("holder cycles %d, lost in the no-TTL moment %d, breaker deletions %d, results %v", cycles.Load(), lostNoTTL.Load(), breakerDelete, refusals)
	if lostLive.Load() != 0 {
		t.Fatalf("the breaker removed a live lock (with a TTL) %d times", lostLive.Load())
	}
	if breakerDelete != lostNoTTL.Load() {
		t.Fatalf("breaker reports %d deletions, holder lost %d locks in the no-TTL moment", breakerDelete, lostNoTTL.Load())
	}
	if cycles.Load() == 0 {
		t.Fatal("holder never completed a cycle")
	}
}

func strconv36(i int) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 36 {
		b = append([]byte{digits[i%36]}, b...)
	}
	return string(b)
}
