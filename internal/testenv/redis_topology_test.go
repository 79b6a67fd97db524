package testenv

import (
	"context"
	"fmt"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestRedisClusterSpreadsKeys checks the harness's cluster: three primaries that share the
// slots, reached through its URL with TLS and a password.
func TestRedisClusterSpreadsKeys(t *testing.T) {
	t.Parallel()
	tlsf := NewTLS(t)
	c := StartRedisCluster(t, 3, TopologyOptions{Password: "cl-pw-123", TLS: &tlsf})
	opt, err := redis.ParseClusterURL(c.URL())
	if err != nil {
		t.Fatal(err)
	}
	opt.TLSConfig = tlsf.TLSConfig(t)
	cc := redis.NewClusterClient(opt)
	defer cc.Close()
	ctx := context.Background()
	owners := map[string]bool{}
	for i := 0; i < 30; i++ {
		k := fmt.Sprintf("redlock:%08x-analysis:step", i*2654435761)
		if err := cc.Set(ctx, k, "v", 0).Err(); err != nil {
			t.Fatalf("SET over TLS: %v", err)
		}
		owners[c.NodeFor(t, k).Addr] = true
	}
	if len(owners) != 3 {
		t.Fatalf("30 keys on %d shards, want 3", len(owners))
	}
}

// TestRedisSentinelFailover checks the harness's Sentinel setup: a failover moves the master to
// the replica, with the data.
func TestRedisSentinelFailover(t *testing.T) {
	t.Parallel()
	s := StartRedisSentinel(t, TopologyOptions{Password: "se-pw-123"})
	ctx := context.Background()
	first := s.CurrentMaster(t)
	if first.Port != s.Master.Port {
		t.Fatalf("the sentinels name %s first, not the master %s", first.Addr, s.Master.Addr)
	}
	if err := first.Client().Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := first.Client().Wait(ctx, 1, 0).Err(); err != nil {
		t.Fatal(err)
	}
	next := s.Failover(t)
	if next.Port != s.Replica.Port || s.CurrentMaster(t).Port != s.Replica.Port {
		t.Fatalf("after the failover the master is %s, want the replica %s", next.Addr, s.Replica.Addr)
	}
	if v, err := next.Client().Get(ctx, "k").Result(); err != nil || v != "v" {
		t.Fatalf("new master has k=%q, %v", v, err)
	}
}
