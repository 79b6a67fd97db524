package worker_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/osctl/osctl/pkg/stress/report"
)

// TestBenchWorkers is the benchmark of osctl stress --workers (scripts/bench/workers.sh, make
// bench): the http profile on a loopback hello server for BENCH_DURATION seconds at total
// concurrency BENCH_CONCURRENCY, from one local process, from two local processes side by side
// at half the concurrency each, and from K = 1 and K = 2 load workers through the API server's
// exec (on this machine kwok runs them as local processes), in interleaved rounds; medians. It
// prints each mode's requests/s (checked against the server's own count), the ratios to the
// local run, the coordination ratio (K = 1 against one local process, K = 2 against two: what the
// Job, exec, framing and merging cost, apart from two processes sharing these cores), and the
// coordinator's CPU against one worker's. It runs only with OSCTL_BENCH_WORKERS=1.
func TestBenchWorkers(t *testing.T) {
	if os.Getenv("OSCTL_BENCH_WORKERS") == "" {
		t.Skip("the benchmark of osctl stress --workers: set OSCTL_BENCH_WORKERS=1 (scripts/bench/workers.sh)")
	}
	rounds := envInt(t, "BENCH_ROUNDS", 3)
	conc := envInt(t, "BENCH_CONCURRENCY", 64)
	dur := envInt(t, "BENCH_DURATION", 5)
	w := newWorld(t)
	var served atomic.Int64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	body := []byte("hello\n")
	srv := &http.Server{Handler: http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		served.Add(1)
		_, _ = rw.Write(body)
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	target := "http://" + ln.Addr().String() + "/"

	type result struct {
		rps, coordCPU, workerCPU float64
		rss                      int64
	}
	// Modes: 0 one local process; -2 two local processes at C/2 each, side by side (what two
	// workers cost on these two cores before any coordination); 1 and 2 load workers.
	modes := []int{0, -2, 1, 2}
	res := map[int][]result{}
	runOne := func(k, c int) (report.Report, float64) {
		args := []string{"stress", "--profile", "http", "--target", target, "--duration", fmt.Sprintf("%ds", dur), "--concurrency", strconv.Itoa(c), "-o", "json"}
		if k > 0 {
			args = append(args, w.workerArgs(k)...)
		}
		cmd := exec.Command(w.bin, args...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Errorf("K=%d: %v\n%s", k, err, errb.String())
			return report.Report{}, 0
		}
		var rep report.Report
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Errorf("K=%d: %v\n%s", k, err, errb.String())
		}
		return rep, (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	}
	for round := 0; round < rounds; round++ {
		for j := range modes {
			k := modes[(j+round)%len(modes)] // each mode goes first in turn: drift hits them alike
			before := served.Load()
			var r result
			var total int64
			if k == -2 {
				reps := make([]report.Report, 2)
				var wg sync.WaitGroup
				for i := range reps {
					wg.Add(1)
					go func() { defer wg.Done(); reps[i], _ = runOne(0, conc/2) }()
				}
				wg.Wait()
				for _, rep := range reps {
					r.rps += rep.Throughput
					total += rep.Counts.Total
				}
			} else {
				rep, cpu := runOne(k, conc)
				// The load's own rate (its requests over its span): the coordinator's setup of the
				// Job is not load time.
				r.rps, r.coordCPU, total = rep.Throughput, cpu, rep.Counts.Total
				for _, wk := range rep.Workers {
					r.workerCPU = max(r.workerCPU, wk.CPU)
					r.rss = max(r.rss, wk.MaxRSS)
				}
			}
			if t.Failed() {
				t.FailNow()
			}
			if n := served.Load() - before; n != total {
				t.Fatalf("K=%d: the server counted %d requests, the report %d", k, n, total)
			}
			res[k] = append(res[k], r)
			t.Logf("round %d K=%d: %d requests, %.0f req/s, coordinator CPU %.2fs, worker CPU %.2fs, worker RSS %d MiB", round, k, total, r.rps, r.coordCPU, r.workerCPU, r.rss>>20)
		}
	}
	median := func(xs []float64) float64 {
		sort.Float64s(xs)
		return xs[len(xs)/2]
	}
	med := func(k int, f func(result) float64) float64 {
		var xs []float64
		for _, r := range res[k] {
			xs = append(xs, f(r))
		}
		return median(xs)
	}
	// ratio is the median over the rounds of mode a's requests/s over mode b's in the same round:
	// the machine's drift between rounds cancels out.
	ratio := func(a, b int) float64 {
		var xs []float64
		for i := range res[a] {
			xs = append(xs, res[a][i].rps/res[b][i].rps)
		}
		return median(xs)
	}
	rps := func(r result) float64 { return r.rps }
	fmt.Printf("BENCH workers: http profile, loopback hello server, total concurrency %d, %ds per run, %d rounds (medians; ratios are medians of each round's)\n", conc, dur, rounds)
	fmt.Printf("BENCH local      %8.0f req/s   (one process at c=%d)\n", med(0, rps), conc)
	fmt.Printf("BENCH local x2   %8.0f req/s   (two processes at c=%d each; ratio to local %.3f)\n", med(-2, rps), conc/2, ratio(-2, 0))
	for _, k := range []int{1, 2} {
		cpu := med(k, func(r result) float64 { return r.coordCPU / r.workerCPU })
		base := 0
		if k == 2 {
			base = -2
		}
		fmt.Printf("BENCH K=%d        %8.0f req/s  ratio to local %.3f  coordination ratio %.3f  coordinator CPU / one worker's %.3f  worker peak RSS %d MiB\n",
			k, med(k, rps), ratio(k, 0), ratio(k, base), cpu, int64(med(k, func(r result) float64 { return float64(r.rss) }))>>20)
	}
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return n
}
