package redischeck_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/redischeck"
	"github.com/osctl/osctl/pkg/redisconn"
	"github.com/osctl/osctl/pkg/redisproc"
)

var fast = redischeck.Options{LockTTL: 10 * time.Second, ClockInterval: 200 * time.Millisecond, ClockSamples: 3}

func masters(t *testing.T, urls ...string) []redisconn.Master {
	t.Helper()
	return testenv.Open(t, redisconn.Connect, redisconn.Config{URLs: urls, DialTimeout: time.Second, ReadTimeout: time.Second}, redisconn.Close)
}

func result(t *testing.T, rs []preflight.Result, id, subject string) preflight.Result {
	t.Helper()
	for _, r := range rs {
		if r.ID == id && (subject == "" || r.Subject == subject) {
			return r
		}
	}
	t.Fatalf("no %s for %q in %+v", id, subject, rs)
	return preflight.Result{}
}

func want(t *testing.T, rs []preflight.Result, id, subject string, st preflight.Status, text string) {
	t.Helper()
	r := result(t, rs, id, subject)
	if r.Status != st || !strings.Contains(r.Message, text) {
		t.Errorf("%s %s: got %s %q, want %s containing %q", id, subject, r.Status, r.Message, st, text)
	}
}

func TestDefaultSingleMaster(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedis(t)
	ms := masters(t, r.URL())
	rs := redischeck.Check(context.Background(), ms, fast)
	n := ms[0].Name
	want(t, rs, redischeck.RuleReachable, n, preflight.Pass, "answers PING")
	want(t, rs, redischeck.RuleMasters, "redis", preflight.Warn, "single point of failure")
	want(t, rs, redischeck.RuleEviction, n, preflight.Pass, "no maxmemory")
	want(t, rs, redischeck.RulePersistence, n, preflight.Warn, "appendonly no")
	want(t, rs, redischeck.RuleReplication, n, preflight.Pass, "standalone")
	want(t, rs, redischeck.RuleRTT, n, preflight.Pass, "of the 10s lock TTL")
	c := result(t, rs, redischeck.RuleClock, n)
	if c.Status == preflight.Unknown || !strings.Contains(c.Message, "clock rate") {
		t.Errorf("clock: %s %s", c.Status, c.Message)
	}
}

func TestEvictionPolicies(t *testing.T) {
	t.Parallel()
	for policy, st := range map[string]preflight.Status{"volatile-lru": preflight.Fail, "allkeys-lru": preflight.Fail, "volatile-ttl": preflight.Fail, "noeviction": preflight.Pass} {
		r := testenv.StartRedis(t, testenv.WithArgs("--maxmemory", "64mb", "--maxmemory-policy", policy))
		ms := masters(t, r.URL())
		rs := redischeck.Check(context.Background(), ms, fast)
		want(t, rs, redischeck.RuleEviction, ms[0].Name, st, policy)
		if policy == "volatile-lru" {
			want(t, rs, redischeck.RuleEviction, ms[0].Name, st, "every lock key has one")
		}
	}
}

func TestAOFAlwaysThreeMasters(t *testing.T) {
	t.Parallel()
	rs3 := testenv.StartRedisMasters(t, 3, testenv.WithArgs("--appendonly", "yes", "--appendfsync", "always"))
	ms := masters(t, testenv.URLs(rs3)...)
	rs := redischeck.Check(context.Background(), ms, fast)
	want(t, rs, redischeck.RuleMasters, "redis", preflight.Pass, "quorum 2")
	for _, m := range ms {
		want(t, rs, redischeck.RulePersistence, m.Name, preflight.Pass, "appendfsync always")
	}
	if preflight.Failed(rs) {
		t.Fatalf("unexpected FAIL: %+v", rs)
	}
}

func TestConfigBlockedIsUnknownWithReason(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedis(t, testenv.WithArgs("--rename-command", "CONFIG", ""))
	ms := masters(t, r.URL())
	rs := redischeck.Check(context.Background(), ms, fast)
	n := ms[0].Name
	want(t, rs, redischeck.RulePersistence, n, preflight.Unknown, "CONFIG is not available")
	want(t, rs, redischeck.RulePersistence, n, preflight.Unknown, "unknown command")
	// maxmemory-policy is still known from INFO.
	want(t, rs, redischeck.RuleEviction, n, preflight.Pass, "INFO (CONFIG is blocked)")
}

func TestUnreachableAndEvenMasters(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedis(t)
	port, err := redisproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	ms := masters(t, r.URL(), fmt.Sprintf("redis://127.0.0.1:%d", port))
	rs := redischeck.Check(context.Background(), ms, fast)
	want(t, rs, redischeck.RuleReachable, ms[1].Name, preflight.Fail, "connection refused")
	want(t, rs, redischeck.RuleReachable, ms[0].Name, preflight.Pass, "")
	want(t, rs, redischeck.RuleMasters, "redis", preflight.Warn, "even number")
}

func TestReplicatedMasterAndReplica(t *testing.T) {
	t.Parallel()
	primary := testenv.StartRedis(t)
	replica := testenv.StartRedis(t, testenv.WithArgs("--replicaof", "127.0.0.1", fmt.Sprint(primary.Port)))
	c := primary.Client()
	testenv.WaitFor(t, 15*time.Second, "the replica to connect", func() (bool, error) {
		info, err := c.Info(context.Background(), "replication").Result()
		return err == nil && strings.Contains(info, "connected_slaves:1"), nil
	})
	ms := masters(t, primary.URL(), replica.URL())
	rs := redischeck.Check(context.Background(), ms, fast)
	want(t, rs, redischeck.RuleReplication, ms[0].Name, preflight.Warn, "replicated master (1 replica(s))")
	want(t, rs, redischeck.RuleReplication, ms[1].Name, preflight.Warn, "this is a replica")
}
