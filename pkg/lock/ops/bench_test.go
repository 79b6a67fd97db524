package ops

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/redisconn"
)

// BenchmarkInspect reads 20,000 lock keys from one real master and encodes them as JSON lines,
// as `osctl locks inspect -o jsonl` does. scripts/bench/locks.sh compares the real binary with
// redis-cli; this is for profiling (go test -bench Inspect -cpuprofile).
func BenchmarkInspect(b *testing.B) {
	_, ms := startMasters(b, 1)
	enc := json.NewEncoder(bufio.NewWriter(io.Discard))
	benchInspect(b, ms, func(v View) error { return enc.Encode(v) })
}

// BenchmarkInspectCluster is BenchmarkInspect on a real 3-primary Redis Cluster: 20,000 keys
// spread over the shards, each shard scanned and each key read on its shard.
func BenchmarkInspectCluster(b *testing.B) {
	c := testenv.StartRedisCluster(b, 3, testenv.TopologyOptions{})
	ms := testenv.Open(b, redisconn.Connect, redisconn.Config{Clusters: []string{c.URL()}}, redisconn.Close)
	benchInspect(b, ms, func(View) error { return nil })
}

// benchInspect sets 20,000 lock keys through ms[0] and then inspects them all b.N times, each
// view passed to each; every run must see every key.
func benchInspect(b *testing.B, ms []redisconn.Master, each func(View) error) {
	ctx := context.Background()
	pipe := ms[0].Client.Pipeline()
	for i := 0; i < 20000; i++ {
		pipe.Set(ctx, "redlock:"+strconv.Itoa(i)+":extract", "q83vEjRWeJCrze8SNFZ4kA==", 10*time.Minute)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		if _, err := Inspect(ctx, ms, Options{Patterns: []string{"redlock:*"}}, func(v View) error { n++; return each(v) }); err != nil {
			b.Fatal(err)
		}
		if n != 20000 {
			b.Fatalf("%d keys", n)
		}
	}
}
