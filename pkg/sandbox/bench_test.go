package sandbox_test

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
)

// BenchmarkUpload measures analysis zip uploads (8-80 KiB, written in 4 KiB pieces with the
// CLI's 1 ms pause) through one in-process replica, per locking mode, spread over 8 analyses or all on one
// (contended: redlock serialises them).
func BenchmarkUpload(b *testing.B) {
	for _, mode := range []sandbox.Locking{sandbox.LockingNone, sandbox.LockingLocal, sandbox.LockingRedlock} {
		for _, spread := range []int{8, 1} {
			b.Run(fmt.Sprintf("%s/analyses=%d", mode, spread), func(b *testing.B) {
				r := testenv.StartRedis(b)
				cfg := sandbox.Config{StateDir: b.TempDir(), Locking: mode, WriteDelay: sandbox.DefaultWriteDelay, Masters: []redis.UniversalClient{r.Client()}}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				s, err := sandbox.New(ctx, cfg)
				if err != nil {
					b.Fatal(err)
				}
				ts := newLoopbackServer(b, s.Handler())
				ids := mustCreate(b, ts, spread)
				z := newTestZip(b)
				ct, body := multipartBody(nil, "file", "analysis.zip", z.body)
				var n atomic.Int64
				b.SetBytes(int64(len(z.body)))
				b.SetParallelism(4)
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						id := ids[int(n.Add(1))%len(ids)]
						st, _, err := call(ctx, http.MethodPost, ts+"/analyses/"+id+"/upload.json", ct, body)
						if err != nil || st != http.StatusCreated {
							b.Errorf("upload: %d %v", st, err)
							return
						}
					}
				})
			})
		}
	}
}
