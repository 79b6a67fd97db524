package lock_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/redisconn"
)

// scriptKeys is a go-redis hook that records, for every EVAL and EVALSHA, how many keys the
// script declared.
type scriptKeys struct {
	mu   sync.Mutex
	max  int
	seen int
}

func (h *scriptKeys) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *scriptKeys) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.record(cmd)
		return next(ctx, cmd)
	}
}
func (h *scriptKeys) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, c := range cmds {
			h.record(c)
		}
		return next(ctx, cmds)
	}
}
func (h *scriptKeys) record(cmd redis.Cmder) {
	switch strings.ToLower(cmd.Name()) {
	case "eval", "evalsha", "eval_ro", "evalsha_ro":
		n, _ := cmd.Args()[2].(int)
		h.mu.Lock()
		h.seen++
		h.max = max(h.max, n)
		h.mu.Unlock()
	}
}

// TestClusterMutualExclusion runs contending lockers on a real 3-primary Redis Cluster, as one
// lock instance: at most one holder per key at any time, fencing tokens that only grow, a lock
// key and its fencing counter on different shards, and every script naming exactly one key, so
// that each one runs on the shard owning that key's slot.
func TestClusterMutualExclusion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := testenv.StartRedisCluster(t, 3, testenv.TopologyOptions{Password: "cluster-pw-1"})
	hook := &scriptKeys{}
	// Keys on every shard, the first one's fencing counter on another shard than the lock.
	var keys []string
	shards := map[string]bool{}
	for i := 0; len(keys) < 6 || len(shards) < 3; i++ {
		k := lock.Key(fmt.Sprintf("%08x-4a3e-8b5c", i*2654435761), "analysis_zip")
		owner := c.NodeFor(t, k).Addr
		if len(keys) == 0 && c.NodeFor(t, lock.FenceKey(k)).Addr == owner {
			continue
		}
		keys = append(keys, k)
		shards[owner] = true
	}
	split := keys[0]
	const workers = 6
	var lockers []*lock.Locker
	for w := 0; w < workers; w++ {
		ms := testenv.Open(t, redisconn.Connect, redisconn.Config{Clusters: []string{c.URL()}}, redisconn.Close)
		ms[0].Client.AddHook(hook)
		lockers = append(lockers, newLocker(t, redisconn.Clients(ms), lock.WithHost(fmt.Sprintf("pod-%d", w)),
			lock.WithRetryDelay(5*time.Millisecond), lock.WithTries(400)))
	}
	inside := make([]atomic.Int32, len(keys))
	var mu sync.Mutex
	last := make([]int64, len(keys))
	var overlaps, acquired atomic.Int32
	var wg sync.WaitGroup
	for w := range lockers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 8; round++ {
				ki := (w + round) % len(keys)
				lease, err := lockers[w].Acquire(ctx, keys[ki])
				if err != nil {
					t.Errorf("worker %d: %v", w, err)
					return
				}
				if inside[ki].Add(1) != 1 {
					overlaps.Add(1)
				}
				mu.Lock()
				if lease.Token() <= last[ki] {
					t.Errorf("%s: token %d after %d", keys[ki], lease.Token(), last[ki])
				}
				last[ki] = lease.Token()
				mu.Unlock()
				time.Sleep(2 * time.Millisecond)
				inside[ki].Add(-1)
				acquired.Add(1)
				if err := lease.Release(ctx); err != nil {
					t.Errorf("worker %d: release: %v", w, err)
				}
			}
		}()
	}
	wg.Wait()
	if overlaps.Load() != 0 || acquired.Load() != workers*8 {
		t.Fatalf("%d overlaps in %d acquisitions", overlaps.Load(), acquired.Load())
	}
	// The split key: its counter lives on another shard and holds the last token issued.
	cc := c.Client(t)
	if v, err := cc.Get(ctx, lock.FenceKey(split)).Int64(); err != nil || v != last[0] {
		t.Errorf("fencing counter of %s = %d, %v; the last token was %d", split, v, err, last[0])
	}
	if n, _ := c.NodeFor(t, split).Client().Exists(ctx, lock.FenceKey(split)).Result(); n != 0 {
		t.Errorf("the counter of %s is on the lock's shard: the test wants them apart", split)
	}
	for _, k := range keys {
		if n, _ := cc.Exists(ctx, k).Result(); n != 0 {
			t.Errorf("%s still held after every release", k)
		}
	}
	if hook.seen == 0 || hook.max != 1 {
		t.Errorf("%d scripts ran, the most keys one named was %d: want every script on exactly one key", hook.seen, hook.max)
	}
}

// TestSentinelFailoverHolder holds a lock on a Sentinel-managed master across SENTINEL
// FAILOVER: the holder keeps the lock on the new master, or it is told the lock is lost, never
// neither. A second lease whose key the new master does not have (a write the replica never
// got, as asynchronous replication allows) is reported lost.
func TestSentinelFailoverHolder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.StartRedisSentinel(t, testenv.TopologyOptions{Password: "sentinel-pw-1"})
	ms := testenv.Open(t, redisconn.Connect, redisconn.Config{Sentinels: []string{s.URL()}, SentinelMaster: testenv.SentinelMaster}, redisconn.Close)
	l := newLocker(t, redisconn.Clients(ms), lock.WithHost("pod-f"))
	a, err := l.Acquire(ctx, lock.Key("failover-a", "extract"))
	if err != nil {
		t.Fatal(err)
	}
	next := s.Failover(t)
	done := time.Now()
	// Two renewals after the failover ended, the lease is one or the other.
	testenv.WaitFor(t, 3*l.TTL(), "the lease to be renewed on the new master or lost", func() (bool, error) {
		return a.Err() != nil || a.Validity().After(done.Add(l.TTL()/2)), nil
	})
	if err := a.Err(); err != nil {
		if !errors.Is(err, lock.ErrLost) || a.Context().Err() == nil {
			t.Fatalf("lease ended with %v, context %v: want ErrLost and a cancelled context", err, a.Context().Err())
		}
		t.Logf("the lease was lost at the failover and the holder was told: %v", err)
	} else {
		v, err := next.Client().Get(ctx, a.Key()).Result()
		ttl, _ := next.Client().PTTL(ctx, a.Key()).Result()
		if err != nil || v != a.Value() || ttl <= 0 {
			t.Fatalf("the lease says held, but the new master %s has %q (%v) with TTL %v", next.Addr, v, err, ttl)
		}
		t.Logf("the lease was kept across the failover: %s holds it with TTL %v", next.Addr, ttl)
	}
	if err := a.Release(ctx); err != nil && !errors.Is(err, lock.ErrLost) {
		t.Fatalf("release after the failover: %v", err)
	}

	b, err := l.Acquire(ctx, lock.Key("failover-b", "extract"))
	if err != nil {
		t.Fatalf("acquiring on the new master: %v", err)
	}
	if v, _ := next.Client().Get(ctx, b.Key()).Result(); v != b.Value() {
		t.Fatalf("the new lease is not on the new master %s", next.Addr)
	}
	if err := next.Client().Del(ctx, b.Key()).Err(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-b.Context().Done():
	case <-time.After(2 * l.TTL()):
		t.Fatal("the lease whose key vanished was not reported lost")
	}
	if !errors.Is(b.Err(), lock.ErrLost) {
		t.Fatalf("lease b: %v, want ErrLost", b.Err())
	}
	if err := b.Release(ctx); !errors.Is(err, lock.ErrLost) {
		t.Fatalf("release of a lost lease: %v, want ErrLost", err)
	}
}

// TestTLSWithACLUsers takes locks over TLS as the least-privilege ACL user the managed-Redis
// page documents, and shows that a user without EVAL gets an error naming EVAL.
func TestTLSWithACLUsers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tlsf := testenv.NewTLS(t)
	r := testenv.StartRedisTLS(t, tlsf)
	testenv.AddACLUser(t, []*testenv.Redis{r.Redis}, "app", "app-pw-1234", testenv.ACLApp)
	testenv.AddACLUser(t, []*testenv.Redis{r.Redis}, "noeval", "noeval-pw-1234", testenv.WithoutCommands(testenv.ACLApp, "eval", "evalsha"))
	url := r.TLSURL

	ms := testenv.Open(t, redisconn.Connect, redisconn.Config{URLs: []string{url("app", "app-pw-1234")}, CAFile: tlsf.CA}, redisconn.Close)
	l := newLocker(t, redisconn.Clients(ms))
	for want := int64(1); want <= 2; want++ {
		lease, err := l.Acquire(ctx, lock.Key("tls-acl", "extract"))
		if err != nil {
			t.Fatalf("as the documented user: %v", err)
		}
		if lease.Token() != want {
			t.Errorf("token %d, want %d", lease.Token(), want)
		}
		if err := lease.Release(ctx); err != nil {
			t.Fatalf("release: %v", err)
		}
	}
	sem, err := lock.NewSemaphore(redisconn.Clients(ms), "tls-acl", 1)
	if err != nil {
		t.Fatal(err)
	}
	p, err := sem.Acquire(ctx)
	if err != nil {
		t.Fatalf("semaphore as the documented user: %v", err)
	}
	if err := p.Release(ctx); err != nil {
		t.Fatal(err)
	}

	ms = testenv.Open(t, redisconn.Connect, redisconn.Config{URLs: []string{url("noeval", "noeval-pw-1234")}, CAFile: tlsf.CA}, redisconn.Close)
	l = newLocker(t, redisconn.Clients(ms), lock.WithTries(1))
	_, err = l.Acquire(ctx, lock.Key("tls-acl-noeval", "extract"))
	if !errors.Is(err, lock.ErrNotAcquired) || !errors.Is(err, lock.ErrPermission) || !strings.Contains(err.Error(), "EVAL (grant +eval +evalsha") {
		t.Fatalf("without EVAL: %v, want ErrPermission naming EVAL", err)
	}
	if strings.Contains(err.Error(), "noeval-pw-1234") {
		t.Fatalf("the error shows the password: %v", err)
	}
}
