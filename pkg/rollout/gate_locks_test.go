package rollout_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/redisconn"
	"github.com/osctl/osctl/pkg/rollout"
)

// TestLocksGateOnACluster: the rollout's lock gate reads every shard of a real cluster: a stale
// lock on any shard fails it, and once it is gone the gate passes; a shard down fails it.
func TestLocksGateOnACluster(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := testenv.StartRedisCluster(t, 3, testenv.TopologyOptions{})
	ms, err := redisconn.Connect(redisconn.Config{Clusters: []string{c.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	defer redisconn.Close(ms)
	checks := &rollout.Checks{Redis: func(context.Context) ([]redisconn.Master, error) { return ms, nil }}
	gates, err := checks.Gates(ctx, rollout.GateConfig{Locks: true})
	if err != nil || len(gates) != 1 {
		t.Fatalf("gates %v %v", gates, err)
	}
	cc := c.Client(t)
	var keys []string
	for i := 0; i < 12; i++ {
		k := lock.Key(fmt.Sprintf("%08x-gate", i*2654435761), "analysis_zip")
		if err := cc.Set(ctx, k, "resque-web-1:41", 0).Err(); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	r := gates[0].Check(ctx)
	if r.Status != preflight.Fail || !strings.Contains(r.Message, rollout.RuleLocksStale) {
		t.Fatalf("stale locks on the shards: %+v", r)
	}
	for _, k := range keys {
		if err := cc.Del(ctx, k).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if r := gates[0].Check(ctx); r.Status != preflight.Pass {
		t.Fatalf("no stale lock left: %+v", r)
	}
	c.Nodes[1].Kill()
	if r := gates[0].Check(ctx); r.Status != preflight.Fail || !strings.Contains(r.Message, "node "+c.Nodes[1].Addr) {
		t.Fatalf("a shard down: %+v", r)
	}
}
