package migration_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/redisproc"
)

// The targets of the Redis topology pages: each ```sh block marked with one runs against a real
// topology this test starts, on loopback ports.
//
//	<!-- test: redis-cluster -->   a 3-primary Redis Cluster with a password (OSCTL_REDIS_CLUSTER)
//	<!-- test: redis-sentinel -->  a master, its replica and 3 sentinels, with a password
//	                               (OSCTL_REDIS_SENTINEL, OSCTL_REDIS_SENTINEL_MASTER, SENTINEL_HOST,
//	                               SENTINEL_PORT, REDISCLI_AUTH for redis-cli)
//	<!-- test: redis-managed -->   a TLS-only master as a provider runs it: CONFIG blocked, ACL
//	                               users osctl (testenv.ACLOsctl) and noeval (the same without
//	                               EVAL) (OSCTL_REDIS, REDIS_CA, NOEVAL_URL)
//
// Each holds what an incident leaves: stale locks (no TTL) and a live lock that a pkg/lock
// holder keeps renewing until the test ends.
const (
	targetRedisCluster  = "redis-cluster"
	targetRedisSentinel = "redis-sentinel"
	targetRedisManaged  = "redis-managed"
)

// The stale analyses the topology pages show.
var topologyStale = []string{"0b9d4c7e-8f2a-4e6b-b3c5-a4d2e1f0c981", "5f3a9e21-7c4d-4b8a-9e6f-1d2c3b4a5e6f", "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"}

// redisEnvs starts the topologies d's blocks use and returns each one's environment.
func redisEnvs(t *testing.T, d doc) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	if d.has(targetRedisCluster) {
		c := testenv.StartRedisCluster(t, 3, testenv.TopologyOptions{Password: "Cluster-PW-docs"})
		plantTopology(t, c.Client(t), []redis.UniversalClient{clusterLockClient(t, c)})
		out[targetRedisCluster] = []string{"OSCTL_REDIS_CLUSTER=" + c.URL()}
	}
	if d.has(targetRedisSentinel) {
		const pw = "Sentinel-PW-docs"
		s := testenv.StartRedisSentinel(t, testenv.TopologyOptions{Password: pw})
		fo := redis.NewFailoverClient(&redis.FailoverOptions{MasterName: testenv.SentinelMaster, SentinelAddrs: []string{s.Sentinels[0].Addr},
			SentinelPassword: pw, Password: pw, ContextTimeoutEnabled: true})
		t.Cleanup(func() { _ = fo.Close() })
		plantTopology(t, s.Master.Client(), []redis.UniversalClient{fo})
		out[targetRedisSentinel] = []string{"OSCTL_REDIS_SENTINEL=" + s.URL(), "OSCTL_REDIS_SENTINEL_MASTER=" + testenv.SentinelMaster,
			"SENTINEL_HOST=127.0.0.1", "SENTINEL_PORT=" + strconv.Itoa(s.Sentinels[0].Port), "REDISCLI_AUTH=" + pw}
	}
	if d.has(targetRedisManaged) {
		out[targetRedisManaged] = managedEnv(t)
	}
	return out
}

// managedEnv starts a TLS master that blocks CONFIG, as Azure Cache for Redis and ElastiCache do
// (here by the ACL: the provider's users never get it), with the documented osctl user.
func managedEnv(t *testing.T) []string {
	t.Helper()
	tlsf := testenv.NewTLS(t)
	port, err := redisproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	r := testenv.StartRedis(t, testenv.WithArgs(tlsf.ServerArgs(port)...), testenv.WithArgs("--maxmemory", "64mb", "--maxmemory-policy", "noeviction"))
	servers := []*testenv.Redis{r}
	testenv.AddACLUser(t, servers, "osctl", "Osctl-PW-docs", testenv.WithoutCommands(testenv.ACLOsctl, "config"))
	testenv.AddACLUser(t, servers, "noeval", "Noeval-PW-docs", testenv.WithoutCommands(testenv.ACLOsctl, "config", "eval", "evalsha"))
	testenv.AddACLUser(t, servers, "app", "App-PW-docs", testenv.ACLApp)
	app := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", port), Username: "app", Password: "App-PW-docs",
		TLSConfig: tlsf.TLSConfig(t), ContextTimeoutEnabled: true})
	t.Cleanup(func() { _ = app.Close() })
	plantTopology(t, r.Client(), []redis.UniversalClient{app})
	url := func(user, pw string) string { return fmt.Sprintf("rediss://%s:%s@127.0.0.1:%d", user, pw, port) }
	return []string{"OSCTL_REDIS=" + url("osctl", "Osctl-PW-docs"), "NOEVAL_URL=" + url("noeval", "Noeval-PW-docs"), "REDIS_CA=" + tlsf.CA}
}

// clusterLockClient is a cluster client for the live holder.
func clusterLockClient(t *testing.T, c *testenv.RedisCluster) redis.UniversalClient {
	opt, err := redis.ParseClusterURL(c.URL())
	if err != nil {
		t.Fatal(err)
	}
	opt.ContextTimeoutEnabled = true
	cc := redis.NewClusterClient(opt)
	t.Cleanup(func() { _ = cc.Close() })
	return cc
}

// plantTopology writes the stale locks with admin (no TTL, as a crashed plain-SET lease leaves
// them) and takes a live lock through holder, renewed by pkg/lock until the test ends.
func plantTopology(t *testing.T, admin redis.Cmdable, holder []redis.UniversalClient) {
	t.Helper()
	ctx := context.Background()
	for i, id := range topologyStale {
		if err := admin.Set(ctx, lock.Key(id, "analysis_zip"), fmt.Sprintf("resque-web-5d8c7b9f4-q2m4x:%d", 41+i), 0).Err(); err != nil {
			t.Fatalf("planting a stale lock: %v", err)
		}
	}
	l, err := lock.New(holder, lock.WithHost("web-5d8c7b9f4-x2x7q"))
	if err != nil {
		t.Fatal(err)
	}
	lease, err := l.Acquire(ctx, lock.Key(liveAnalysis, "analysis_zip"))
	if err != nil {
		t.Fatalf("taking the live lock: %v", err)
	}
	t.Cleanup(func() { _ = lease.Release(context.Background()) })
}

// TestManagedPageHoldsTheTestedACL: the ACL rules redis-managed.md gives are the ones the tests
// grant (testenv.ACLOsctl, testenv.ACLApp), as written.
func TestManagedPageHoldsTheTestedACL(t *testing.T) {
	b, err := os.ReadFile("redis-managed.md")
	if err != nil {
		t.Fatal(err)
	}
	for name, rules := range map[string]string{"ACLOsctl": testenv.ACLOsctl, "ACLApp": testenv.ACLApp} {
		if !strings.Contains(string(b), rules) {
			t.Errorf("redis-managed.md does not hold testenv.%s as written:\n%s", name, rules)
		}
	}
}
