package sandbox_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
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

// BenchmarkInitializeAnalysisDrain measures how long a 3-replica sandbox (real processes, the
// real 5 s worker interval) takes to run 2,000 InitializeAnalysis jobs of 6-entry ~20 KB zips
// over 200 analyses, from the last start answered until every worker is idle. Run it once:
// go test -run '^$' -bench InitializeAnalysisDrain -benchtime 1x ./pkg/sandbox/
func BenchmarkInitializeAnalysisDrain(b *testing.B) {
	const analyses, starts = 200, 2000
	for _, mode := range []sandbox.Locking{sandbox.LockingNone, sandbox.LockingLocal, sandbox.LockingRedlock} {
		b.Run(string(mode), func(b *testing.B) {
			for range b.N {
				sb := sandboxenv.Start(b, "--replicas", "3", "--locking", string(mode))
				ids := mustCreate(b, sb.Replicas[0], analyses)
				names := []string{"seed.osm", "weather.epw", "scripts/analysis/run.rb", "scripts/analysis/initialize.sh", "data/a.csv", "data/b.csv"}
				ctx := context.Background()
				for _, id := range ids {
					data := make([][]byte, len(names))
					for i := range data {
						data[i] = randBytes(3400)
					}
					ct, body := multipartBody(nil, "file", "analysis.zip", orderedZip(b, names, data))
					if st, _, err := call(ctx, http.MethodPost, sb.Replicas[0]+"/analyses/"+id+"/upload.json", ct, body); err != nil || st != http.StatusCreated {
						b.Fatalf("upload: %d %v", st, err)
					}
				}
				work := make(chan int)
				var wg sync.WaitGroup
				for range 64 {
					wg.Go(func() {
						for i := range work {
							if code, err := start(ctx, sb.URL(i, ""), ids[i%len(ids)]); err != nil || code != 200 {
								b.Errorf("start: %d %v", code, err)
							}
						}
					})
				}
				began := time.Now()
				for i := range starts {
					work <- i
				}
				close(work)
				wg.Wait()
				loaded := time.Now()
				if err := sb.WaitIdle(5 * time.Minute); err != nil {
					b.Fatal(err)
				}
				drain := time.Since(loaded)
				var performed, failed int64
				for _, r := range sb.Replicas {
					w := workerStatus(b, r)
					performed, failed = performed+w.Performed, failed+w.Failed
				}
				if performed+failed != starts || failed != 0 {
					b.Fatalf("%d jobs performed, %d failed, want %d performed", performed, failed, starts)
				}
				b.ReportMetric(loaded.Sub(began).Seconds(), "s-starts")
				b.ReportMetric(drain.Seconds(), "s-drain")
				b.ReportMetric(float64(drain.Microseconds())/1000/starts, "ms/job")
				sb.Stop()
			}
		})
	}
}
