package ops

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/redisconn"
)

// clusterLocks plants, on a real cluster, n stale locks (no TTL), n live ones held by pkg/lock
// (renewed until the test ends) and a hash, on keys that cover every shard. It returns the
// keys by verdict.
func clusterLocks(t *testing.T, c *testenv.RedisCluster, ms []redisconn.Master, n int) (stale, live []string, hash string) {
	t.Helper()
	ctx := context.Background()
	cc := c.Client(t)
	shards := map[string]bool{}
	l, err := lock.New(redisconn.Clients(ms), lock.WithHost("web-live"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; len(stale) < n || len(shards) < len(c.Nodes); i++ {
		k := lock.Key(fmt.Sprintf("%08x-6d1f-4a3e", i*2654435761), "analysis_zip")
		shards[c.NodeFor(t, k).Addr] = true
		must(t, cc.Set(ctx, k, fmt.Sprintf("8d6f4f0c-2f7a-4a59-9c43-%012d", i), 0).Err())
		stale = append(stale, k)
	}
	for i := 0; i < n; i++ {
		lease, err := l.Acquire(ctx, lock.Key(fmt.Sprintf("live-%d", i), "analysis_zip"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = lease.Release(context.Background()) })
		live = append(live, lease.Key())
	}
	hash = "redlock:not-a-lock:hash"
	must(t, cc.HSet(ctx, hash, "a", "b").Err())
	return stale, live, hash
}

// TestInspectAndBreakOnCluster inspects a real 3-primary cluster as one lock instance: every
// lock on every shard found once, each with its shard; break --stale removes the stale ones on
// their shards and never a live one; with a user that may not run scripts the same is read
// with plain commands, and the break is refused up front naming EVAL.
func TestInspectAndBreakOnCluster(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := testenv.StartRedisCluster(t, 3, testenv.TopologyOptions{})
	ms := testenv.Open(t, redisconn.Connect, redisconn.Config{Clusters: []string{c.URL()}}, redisconn.Close)
	stale, live, hash := clusterLocks(t, c, ms, 12)

	got, sum := inspectAll(t, ms, Options{Batch: 5})
	if len(sum.Masters) != 1 || sum.Masters[0].Kind != redisconn.Cluster || len(sum.Masters[0].Nodes) != 3 || sum.Down() != 0 {
		t.Fatalf("summary %+v", sum)
	}
	if len(got) != len(stale)+len(live)+1 || sum.Stale != len(stale) {
		t.Fatalf("%d keys (%d stale), want %d (%d stale): %v", len(got), sum.Stale, len(stale)+len(live)+1, len(stale), keys(got))
	}
	for _, k := range stale {
		v := got[k]
		if v.Verdict.Rule != RuleNoTTL || v.Held != 1 || v.Masters != 1 || v.Holdings[0].Node != c.NodeFor(t, k).Addr {
			t.Errorf("%s: %+v", k, v)
		}
	}
	for _, k := range live {
		if v := got[k]; v.Verdict.Status != StatusLive || v.Flavour != FlavourOsctl || v.Holdings[0].Node != c.NodeFor(t, k).Addr {
			t.Errorf("%s: %+v", k, v)
		}
	}
	if got[hash].Verdict.Status != StatusNotALock {
		t.Errorf("hash: %+v", got[hash].Verdict)
	}
	// The exporter: osctl_redis_up and its RTT per shard, the cluster named by its first seed.
	g := gather(t, NewCollector(NewMonitor(ctx, ms, HealthOptions{})))
	for _, n := range c.Nodes {
		g.want(t, fmt.Sprintf(`osctl_redis_up{master=%q,node=%q}`, c.Nodes[0].Addr, n.Addr), 1)
		if _, ok := g[fmt.Sprintf(`osctl_redis_rtt_seconds{master=%q,node=%q}`, c.Nodes[0].Addr, n.Addr)]; !ok {
			t.Errorf("no RTT of shard %s", n.Addr)
		}
	}
	g.want(t, `osctl_locks{flavour="redlock-rb",verdict="stale"}`, float64(len(stale)))

	// A user without EVAL: the same views through GET and PTTL; the break refused, naming EVAL.
	testenv.AddACLUser(t, nodes(c), "noeval", "noeval-pw-1", testenv.WithoutCommands(testenv.ACLOsctl, "eval", "evalsha"))
	limited := testenv.Open(t, redisconn.Connect, redisconn.Config{Clusters: []string{strings.Replace(c.URL(), "redis://", "redis://noeval:noeval-pw-1@", 1)}}, redisconn.Close)
	lgot, lsum := inspectAll(t, limited, Options{Batch: 5})
	if lsum.Down() != 0 || len(lgot) != len(got) || lgot[stale[0]].Verdict.Rule != RuleNoTTL || lgot[live[0]].Verdict.Status != StatusLive || lgot[hash].Type != "hash" {
		t.Fatalf("without EVAL: %+v, %d keys", lsum.Masters, len(lgot))
	}
	var pe *redisconn.PermissionError
	if err := NewBreaker(limited, BreakOptions{}).Check(ctx, stale[0]); !errors.As(err, &pe) || pe.Command != "EVAL" || !strings.Contains(err.Error(), "may not run EVAL") {
		t.Fatalf("Check without EVAL: %v", err)
	}
	if err := NewBreaker(ms, BreakOptions{}).Check(ctx, stale[0]); err != nil {
		t.Fatalf("Check with EVAL: %v", err)
	}

	// Break every stale lock; the live ones keep being renewed meanwhile.
	b := NewBreaker(ms, BreakOptions{Audit: true, Who: "test"})
	for _, k := range stale {
		rec, err := b.Break(ctx, got[k])
		if err != nil || rec.Outcome != OutcomeBroken || rec.Results[0].Node != c.NodeFor(t, k).Addr {
			t.Fatalf("break %s: %+v %v", k, rec, err)
		}
	}
	for _, k := range live {
		rec, err := b.Break(ctx, got[k])
		if err != nil || rec.Outcome != OutcomeRefused || rec.Deleted() != 0 {
			t.Fatalf("a live lock was not refused: %+v %v", rec, err)
		}
	}
	got, sum = inspectAll(t, ms, Options{})
	if sum.Stale != 0 || len(got) != len(live)+1 {
		t.Fatalf("after the break: %d keys, %d stale: %v", len(got), sum.Stale, keys(got))
	}
	if n, _ := c.Client(t).XLen(ctx, AuditStream).Result(); n != int64(len(stale)) {
		t.Errorf("%d audit records, want %d", n, len(stale))
	}
}

func nodes(c *testenv.RedisCluster) []*testenv.Redis {
	var out []*testenv.Redis
	for _, n := range c.Nodes {
		out = append(out, n.Redis)
	}
	return out
}

// TestInspectClusterWithAShardDown: the other shards' locks are still found, the master is
// reported partly down (naming the shard), and a key on the down shard has its error.
func TestInspectClusterWithAShardDown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := testenv.StartRedisCluster(t, 3, testenv.TopologyOptions{})
	ms := testenv.Open(t, redisconn.Connect, redisconn.Config{Clusters: []string{c.URL()}}, redisconn.Close)
	stale, _, _ := clusterLocks(t, c, ms, 6)
	down := c.NodeFor(t, stale[0])
	var onDown, elsewhere []string
	for _, k := range stale {
		if c.NodeFor(t, k).Addr == down.Addr {
			onDown = append(onDown, k)
		} else {
			elsewhere = append(elsewhere, k)
		}
	}
	down.Kill()
	got, sum := inspectAll(t, ms, Options{})
	if sum.Down() != 1 || sum.Masters[0].Error != "" || !sum.Masters[0].Partial() {
		t.Fatalf("summary %+v", sum.Masters)
	}
	var shardErr string
	for _, n := range sum.Masters[0].Nodes {
		if n.Addr == down.Addr {
			shardErr = n.Error
		}
	}
	if !strings.Contains(shardErr, "shard "+down.Addr) {
		t.Errorf("the down shard's error: %q", shardErr)
	}
	for _, k := range elsewhere {
		if got[k].Verdict.Rule != RuleNoTTL {
			t.Errorf("%s on a live shard: %+v", k, got[k])
		}
	}
	for _, k := range onDown {
		if _, ok := got[k]; ok {
			t.Errorf("%s on the down shard was reported", k)
		}
	}
	v := NewBreaker(ms, BreakOptions{}).r.fetch(ctx, onDown[:1])[0]
	if v.Holdings[0].Error == "" || v.Holdings[0].Node != down.Addr {
		t.Errorf("a key on the down shard: %+v", v.Holdings[0])
	}
}

// TestInspectSentinelMaster reads a lock through the sentinels and says which master it read.
func TestInspectSentinelMaster(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.StartRedisSentinel(t, testenv.TopologyOptions{Password: "s-pw-123"})
	ms := testenv.Open(t, redisconn.Connect, redisconn.Config{Sentinels: []string{s.URL()}, SentinelMaster: testenv.SentinelMaster}, redisconn.Close)
	must(t, s.Master.Client().Set(ctx, "redlock:s1:analysis_zip", "osctl:v1:web-0:1:abc", 9*time.Second).Err())
	got, sum := inspectAll(t, ms, Options{})
	v := got["redlock:s1:analysis_zip"]
	if v.Verdict.Status != StatusLive || v.Holdings[0].Node != s.Master.Addr {
		t.Fatalf("view %+v", v)
	}
	if m := sum.Masters[0]; m.Kind != redisconn.Sentinel || len(m.Nodes) != 1 || m.Nodes[0].Addr != s.Master.Addr || m.Error != "" {
		t.Fatalf("summary %+v", m)
	}
	h := NewMonitor(ctx, ms, HealthOptions{}).Health()
	if len(h.Masters) != 1 || h.Masters[0].Addr != testenv.SentinelMaster || len(h.Masters[0].Nodes) != 1 || h.Masters[0].Nodes[0].Addr != s.Master.Addr || !h.Masters[0].Nodes[0].Up {
		t.Fatalf("health %+v", h.Masters)
	}
}
