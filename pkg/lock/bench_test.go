package lock_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/go-redsync/redsync/v4"
	rsredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
)

// BenchmarkAcquireRelease compares one uncontended acquire+release on the same three masters:
// bare redsync (LockContext+UnlockContext), pkg/lock without fencing, and pkg/lock with fencing.
// The three are interleaved LOCK_BENCH_ROUNDS times (default 1) within one run so that load
// from elsewhere on the machine hits them alike; scripts/bench/lock.sh prints the ratios.
func BenchmarkAcquireRelease(b *testing.B) {
	ctx := context.Background()
	rs := testenv.StartRedisMasters(b, 3)
	cs := testenv.Clients(rs)
	pools := make([]rsredis.Pool, len(cs))
	for i, c := range cs {
		pools[i] = goredis.NewPool(c)
	}
	key := func(i int) string { return fmt.Sprintf("redlock:bench:%d", i%64) }
	rounds, _ := strconv.Atoi(os.Getenv("LOCK_BENCH_ROUNDS"))
	rounds = max(rounds, 1)

	bare := func(b *testing.B) {
		r := redsync.New(pools...)
		for i := 0; b.Loop(); i++ {
			m := r.NewMutex(key(i), redsync.WithExpiry(lock.DefaultTTL))
			if err := m.LockContext(ctx); err != nil {
				b.Fatal(err)
			}
			if ok, err := m.UnlockContext(ctx); !ok {
				b.Fatal(err)
			}
		}
	}
	withLock := func(fencing bool) func(*testing.B) {
		return func(b *testing.B) {
			l, err := lock.New(cs, lock.WithFencing(fencing))
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				lease, err := l.Acquire(ctx, key(i))
				if err != nil {
					b.Fatal(err)
				}
				if err := lease.Release(ctx); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	for range rounds {
		b.Run("redsync", bare)
		b.Run("lock", withLock(false))
		b.Run("lock-fencing", withLock(true))
	}
}
