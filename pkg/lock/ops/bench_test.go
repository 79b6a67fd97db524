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
		w := bufio.NewWriter(io.Discard)
		enc := json.NewEncoder(w)
		n := 0
		if _, err := Inspect(ctx, ms, Options{Patterns: []string{"redlock:*"}}, func(v View) error { n++; return enc.Encode(v) }); err != nil {
			b.Fatal(err)
		}
		if n != 20000 {
			b.Fatalf("%d keys", n)
		}
	}
}

// BenchmarkInspectCluster is BenchmarkInspect on a real 3-primary Redis Cluster: 20,000 keys
// spread over the shards, each shard scanned and each key read on its shard.
func BenchmarkInspectCluster(b *testing.B) {
	c := testenv.StartRedisCluster(b, 3, testenv.TopologyOptions{})
	ms, err := redisconn.Connect(redisconn.Config{Clusters: []string{c.URL()}})
	if err != nil {
		b.Fatal(err)
	}
	defer redisconn.Close(ms)
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
		if _, err := Inspect(ctx, ms, Options{Patterns: []string{"redlock:*"}}, func(View) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		if n != 20000 {
			b.Fatalf("%d keys", n)
		}
	}
}
