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
	"sync/atomic"
	"testing"

	"github.com/osctl/osctl/pkg/stress/report"
)

// TestBenchWorkers is the benchmark of osctl stress --workers (scripts/bench/workers.sh, make
// bench): the http profile on a loopback hello server for BENCH_DURATION at total concurrency
// BENCH_CONCURRENCY, from this process alone (local) and from K = 1 and K = 2 load workers
// through the API server's exec (on this machine, kwok runs them as local processes), in
// interleaved rounds; medians. It prints each mode's requests/s (as the server counted them),
// the ratios to the local run, and the coordinator's CPU against one worker's. It runs only
// with OSCTL_BENCH_WORKERS=1.
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
		timedOut                 int64
	}
	modes := []int{0, 1, 2}
	res := map[int][]result{}
	for round := 0; round < rounds; round++ {
		for _, k := range modes {
			args := []string{"stress", "--profile", "http", "--target", target, "--duration", fmt.Sprintf("%ds", dur), "--concurrency", strconv.Itoa(conc), "-o", "json"}
			if k > 0 {
				args = append(args, w.workerArgs(k)...)
			}
			before := served.Load()
			cmd := exec.Command(w.bin, args...)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Run(); err != nil {
				t.Fatalf("K=%d: %v\n%s", k, err, errb.String())
			}
			var rep report.Report
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("K=%d: %v\n%s", k, err, errb.String())
			}
			n := served.Load() - before
			if n != rep.Counts.Total {
				t.Fatalf("K=%d: the server counted %d requests, the report %d", k, n, rep.Counts.Total)
			}
			// The load's own rate (the requests the server counted over the load's span): the
			// coordinator's setup of the Job is not load time.
			r := result{rps: rep.Throughput, coordCPU: (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()}
			for _, wk := range rep.Workers {
				r.workerCPU = max(r.workerCPU, wk.CPU)
				r.rss = max(r.rss, wk.MaxRSS)
			}
			res[k] = append(res[k], r)
			t.Logf("round %d K=%d: %d requests, %.0f req/s, coordinator CPU %.2fs, worker CPU %.2fs, worker RSS %d MiB", round, k, n, r.rps, r.coordCPU, r.workerCPU, r.rss>>20)
		}
	}
	med := func(k int, f func(result) float64) float64 {
		var xs []float64
		for _, r := range res[k] {
			xs = append(xs, f(r))
		}
		sort.Float64s(xs)
		return xs[len(xs)/2]
	}
	rps := func(r result) float64 { return r.rps }
	local := med(0, rps)
	fmt.Printf("BENCH workers: http profile, loopback hello server, total concurrency %d, %ds per run, %d rounds (medians)\n", conc, dur, rounds)
	fmt.Printf("BENCH local      %8.0f req/s\n", local)
	for _, k := range []int{1, 2} {
		cpu := med(k, func(r result) float64 { return r.coordCPU / r.workerCPU })
		fmt.Printf("BENCH K=%d        %8.0f req/s  ratio to local %.3f  coordinator CPU / one worker's %.3f  worker peak RSS %d MiB\n",
			k, med(k, rps), med(k, rps)/local, cpu, int64(med(k, func(r result) float64 { return float64(r.rss) }))>>20)
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
