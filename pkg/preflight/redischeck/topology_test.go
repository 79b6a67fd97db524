package redischeck_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/redischeck"
	"github.com/osctl/osctl/pkg/redisconn"
)

// TestClusterTopology: a 3-primary cluster is one lock instance of three shards, each shard
// checked on its own.
func TestClusterTopology(t *testing.T) {
	t.Parallel()
	c := testenv.StartRedisCluster(t, 3, testenv.TopologyOptions{})
	ms := testenv.Open(t, redisconn.Connect, redisconn.Config{Clusters: []string{c.URL()}}, redisconn.Close)
	rs := redischeck.Check(context.Background(), ms, fast)
	want(t, rs, redischeck.RuleTopology, ms[0].Name, preflight.Info, "Redis Cluster with 3 shard(s)")
	want(t, rs, redischeck.RuleMasters, "redis", preflight.Warn, "one master")
	want(t, rs, redischeck.RulePermissions, ms[0].Name, preflight.Pass, "EVAL, SCAN and GET")
	for _, n := range c.Nodes {
		want(t, rs, redischeck.RuleReachable, ms[0].Name+" shard "+n.Addr, preflight.Pass, "answers PING")
		want(t, rs, redischeck.RuleReplication, ms[0].Name+" shard "+n.Addr, preflight.Pass, "Redis Cluster shard without replicas")
		want(t, rs, redischeck.RuleRTT, ms[0].Name+" shard "+n.Addr, preflight.Pass, "on 1 master(s)")
	}
}

// TestSentinelTopology: a master behind Sentinel is reported as such, with the failover warning
// and its mitigations.
func TestSentinelTopology(t *testing.T) {
	t.Parallel()
	s := testenv.StartRedisSentinel(t, testenv.TopologyOptions{})
	ms := testenv.Open(t, redisconn.Connect, redisconn.Config{Sentinels: []string{s.URL()}, SentinelMaster: testenv.SentinelMaster}, redisconn.Close)
	rs := redischeck.Check(context.Background(), ms, fast)
	r := result(t, rs, redischeck.RuleTopology, ms[0].Name)
	if r.Status != preflight.Warn || !strings.Contains(r.Message, "Sentinel with 1 replica(s): master mymaster at "+s.Master.Addr+", 3 sentinel(s), quorum 2") ||
		!strings.Contains(r.Message, "can vanish at failover") {
		t.Errorf("topology: %s %q", r.Status, r.Message)
	}
	for _, m := range []string{"independent masters", "min-replicas-to-write", "WAIT", "fencing"} {
		if !strings.Contains(r.Fix, m) {
			t.Errorf("the warning's fix does not name %q: %s", m, r.Fix)
		}
	}
	want(t, rs, redischeck.RuleReachable, ms[0].Name+" master "+s.Master.Addr, preflight.Pass, "answers PING")
	want(t, rs, redischeck.RuleReplication, ms[0].Name+" master "+s.Master.Addr, preflight.Warn, "replicated master (1 replica(s))")
}

// TestManagedRedisOverTLS emulates a managed Redis: TLS, and ACL users as a provider hands out.
// The documented osctl user passes; one without CONFIG and INFO gets unknown with the reason
// (and the topology says it looks managed); one without EVAL fails the permissions check,
// naming EVAL.
func TestManagedRedisOverTLS(t *testing.T) {
	t.Parallel()
	tlsf := testenv.NewTLS(t)
	r := testenv.StartRedisTLS(t, tlsf, testenv.WithArgs("--maxmemory", "64mb", "--maxmemory-policy", "noeviction"))
	servers := []*testenv.Redis{r.Redis}
	testenv.AddACLUser(t, servers, "osctl", "osctl-pw-1", testenv.ACLOsctl)
	testenv.AddACLUser(t, servers, "managed", "managed-pw-1", testenv.WithoutCommands(testenv.ACLOsctl, "config", "info"))
	testenv.AddACLUser(t, servers, "noeval", "noeval-pw-1", testenv.WithoutCommands(testenv.ACLOsctl, "eval", "evalsha"))
	check := func(user, pw string) ([]preflight.Result, string) {
		ms := testenv.Open(t, redisconn.Connect, redisconn.Config{URLs: []string{r.TLSURL(user, pw)}, CAFile: tlsf.CA}, redisconn.Close)
		return redischeck.Check(context.Background(), ms, fast), ms[0].Name
	}

	rs, n := check("osctl", "osctl-pw-1")
	want(t, rs, redischeck.RulePermissions, n, preflight.Pass, "")
	want(t, rs, redischeck.RuleEviction, n, preflight.Pass, "noeviction (from CONFIG)")
	want(t, rs, redischeck.RuleTopology, n, preflight.Info, "standalone master, 0 replica(s)")

	rs, n = check("managed", "managed-pw-1")
	want(t, rs, redischeck.RulePersistence, n, preflight.Unknown, "CONFIG is not available")
	want(t, rs, redischeck.RulePersistence, n, preflight.Unknown, "'config|get'")
	want(t, rs, redischeck.RuleReplication, n, preflight.Unknown, "INFO unavailable")
	want(t, rs, redischeck.RuleEviction, n, preflight.Unknown, "CONFIG is not available")
	want(t, rs, redischeck.RuleTopology, n, preflight.Info, "managed Redis, it seems: CONFIG GET refused")
	want(t, rs, redischeck.RuleReachable, n, preflight.Pass, "answers PING")
	if preflight.Failed(rs) {
		t.Errorf("a managed Redis whose CONFIG and INFO are refused FAILed: %+v", rs)
	}

	rs, n = check("noeval", "noeval-pw-1")
	want(t, rs, redischeck.RulePermissions, n, preflight.Fail, "may not run EVAL")
	for _, x := range rs {
		if strings.Contains(x.Message+x.Subject, "-pw-1") {
			t.Errorf("a password in %+v", x)
		}
	}
}

func TestTopologyAndPermissionRules(t *testing.T) {
	st := redisconn.SentinelState{MasterName: "mymaster", Master: "10.0.0.5:6379", Replicas: 2, Sentinels: 3, Quorum: 2, Flags: "master"}
	r := redischeck.TopologyRule(redischeck.Topology{Name: "s", Kind: redisconn.Sentinel, Sentinel: &st, Replicas: 2})
	if r.Status != preflight.Warn || !strings.Contains(r.Message, "Sentinel with 2 replica(s)") {
		t.Errorf("sentinel: %+v", r)
	}
	r = redischeck.TopologyRule(redischeck.Topology{Name: "s", Kind: redisconn.Sentinel, Err: errors.New("no sentinel answered")})
	if r.Status != preflight.Unknown {
		t.Errorf("sentinels down: %+v", r)
	}
	r = redischeck.TopologyRule(redischeck.Topology{Name: "c", Kind: redisconn.Cluster, Shards: []string{"a:1", "b:1", "c:1"}, Replicas: 3})
	if r.Status != preflight.Warn || !strings.Contains(r.Message, "3 shard(s)") || !strings.Contains(r.Fix, "min-replicas-to-write") {
		t.Errorf("replicated cluster: %+v", r)
	}
	r = redischeck.TopologyRule(redischeck.Topology{Name: "m", Kind: redisconn.Standalone, Replicas: -1, Managed: []string{"INFO refused (x)", "INFO refused (x)"}})
	if r.Status != preflight.Info || !strings.Contains(r.Message, "replicas unknown") || strings.Count(r.Message, "INFO refused (x)") != 1 {
		t.Errorf("managed: %+v", r)
	}
	pe := &redisconn.PermissionError{Master: "m", Command: "SCAN"}
	r = redischeck.PermissionsRule(redischeck.Permissions{Name: "m", Scan: pe, Get: errors.New("i/o timeout")})
	if r.Status != preflight.Fail || !strings.Contains(r.Message, "may not run SCAN") {
		t.Errorf("no SCAN: %+v", r)
	}
	r = redischeck.PermissionsRule(redischeck.Permissions{Name: "m", Get: errors.New("i/o timeout")})
	if r.Status != preflight.Unknown || !strings.Contains(r.Message, "GET on redlock:*: i/o timeout") {
		t.Errorf("timeout: %+v", r)
	}
}
