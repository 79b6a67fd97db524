package worker_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/report"
	"github.com/osctl/osctl/pkg/stress/workers"
)

// These tests run the real osctl binary as the coordinator against a real API server, and the
// real binary again as every load worker: kwok runs each pod's exec on this host, where the shim
// makes `osctl` the binary under test. The pods live in a namespace that enforces the
// "restricted" Pod Security Standard, so a worker pod that does not meet it is never created.

func TestMain(m *testing.M) { os.Exit(testenv.RunMain(m)) }

// world is one test's namespace on the shared control plane.
type world struct {
	k   *testenv.Kube
	ns  string
	bin string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	k.Kubectl(t, "label", "namespace", ns, "pod-security.kubernetes.io/enforce=restricted")
	bin := testenv.OsctlBinary(t)
	k.OsctlInPods(t, bin)
	return &world{k: k, ns: ns, bin: bin}
}

// run is one run of the coordinator, with its JSON report when it printed one.
type run struct {
	testenv.OsctlRun
	rep report.Report
}

// osctl runs the osctl binary with args, bounded by 4 minutes.
func osctl(t *testing.T, args ...string) testenv.OsctlRun {
	t.Helper()
	return testenv.RunOsctl(t, 4*time.Minute, args...)
}

// workerArgs are the flags of every in-cluster run here.
func (w *world) workerArgs(k int) []string {
	return []string{"--kubeconfig", w.k.Kubeconfig, "-n", w.ns, "--workers", strconv.Itoa(k), "--worker-image", "registry.invalid/osctl:test",
		"--worker-ready-timeout", "60s"}
}

// stress runs `osctl stress args...` in K workers (bounded by 4 minutes); started, when set, is
// called with the running command once it is under way.
func (w *world) stress(t *testing.T, k int, args []string, started func(*exec.Cmd, *testenv.LockedBuffer)) run {
	t.Helper()
	return startRun(t, append(append([]string{"stress", "-o", "json"}, w.workerArgs(k)...), args...), started)
}

// startRun runs osctl with args (bounded by 4 minutes), calls started (when set) once it is
// under way, and decodes its JSON report when it wrote one.
func startRun(t *testing.T, args []string, started func(*exec.Cmd, *testenv.LockedBuffer)) run {
	t.Helper()
	o := testenv.StartOsctl(t, 4*time.Minute, args...)
	if started != nil {
		started(o.Cmd, o.Stderr)
	}
	r := run{OsctlRun: o.Wait(t)}
	if strings.HasPrefix(strings.TrimSpace(r.Stdout), "{") {
		r.Decode(t, &r.rep)
	}
	return r
}

// nothingLeft checks that no Job and no pod of the run is left in the namespace.
func (w *world) nothingLeft(t *testing.T, runID string) {
	t.Helper()
	sel := metav1.ListOptions{LabelSelector: workers.LabelRun + "=" + runID}
	cs := w.k.Clients.Clientset
	testenv.WaitFor(t, 30*time.Second, "the run's Job and pods to be gone", func() (bool, error) {
		jobs, err := cs.BatchV1().Jobs(w.ns).List(context.Background(), sel)
		if err != nil {
			return false, err
		}
		pods, err := cs.CoreV1().Pods(w.ns).List(context.Background(), sel)
		if err != nil {
			return false, err
		}
		return len(jobs.Items) == 0 && len(pods.Items) == 0, nil
	})
}

// noJobs checks that no Job is in the namespace.
func (w *world) noJobs(t *testing.T) {
	t.Helper()
	jobs, err := w.k.Clients.Clientset.BatchV1().Jobs(w.ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs.Items {
		t.Errorf("Job %s is left", j.Name)
	}
}

// merged checks the merge: the report's counts are the sum of the workers', and each request of
// the history names its worker.
func merged(t *testing.T, r run, k int, hist *history.History) {
	t.Helper()
	if len(r.rep.Workers) != k {
		t.Fatalf("%d workers in the report, want %d: %+v\n%s", len(r.rep.Workers), k, r.rep.Workers, r.Stderr)
	}
	var sent, acked, errs int64
	for i, wk := range r.rep.Workers {
		if wk.Index != i || wk.Pod == "" || wk.Sent == 0 {
			t.Errorf("worker %d: %+v", i, wk)
		}
		sent, acked, errs = sent+wk.Sent, acked+wk.Acknowledged, errs+wk.Errors
		t.Logf("worker %d %s: %d sent, %d acknowledged, %.0f req/s, p99 %.1fms, %d errors, lost %v %s", wk.Index, wk.Pod, wk.Sent, wk.Acknowledged, wk.Throughput, wk.P99, wk.Errors, wk.Lost, wk.Reason)
	}
	t.Logf("merged: %+v; latency p50 %.1fms p90 %.1fms p99 %.1fms; findings %v", r.rep.Counts, r.rep.Latency.P50, r.rep.Latency.P90, r.rep.Latency.P99, r.rep.FindingCounts)
	c := r.rep.Counts
	if sent != c.Total || acked != c.Acknowledged || errs != c.Errors+c.Timeouts {
		t.Errorf("workers sent %d, acknowledged %d, errors %d; the merged counts %+v", sent, acked, errs, c)
	}
	if hist == nil {
		return
	}
	per := map[int]int64{}
	for _, rec := range hist.Records {
		if rec.Kind != history.KindRequest {
			continue
		}
		if rec.Worker == nil {
			t.Fatalf("request record without its worker: %+v", rec)
		}
		if !rec.Setup {
			per[*rec.Worker]++
		}
	}
	for i, wk := range r.rep.Workers {
		if per[i] != wk.Sent {
			t.Errorf("worker %d sent %d, the history holds %d of its load requests", i, wk.Sent, per[i])
		}
	}
	if hist.Header.Workers != k {
		t.Errorf("history header says %d workers", hist.Header.Workers)
	}
}

func readHistory(t *testing.T, path string) *history.History {
	t.Helper()
	h, err := history.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// judgeAgain re-judges the merged history offline and checks the verdict is the run's.
func (w *world) judgeAgain(t *testing.T, r run, hist string, extra ...string) {
	t.Helper()
	j := osctl(t, append([]string{"stress", "judge", "--history", hist, "-o", "json"}, extra...)...)
	code := j.Code
	var off report.Report
	j.Decode(t, &off)
	if code != r.Code || off.Verdict != r.rep.Verdict || off.Conclusive != r.rep.Conclusive || len(off.Findings) != len(r.rep.Findings) ||
		off.Counts.Total != r.rep.Counts.Total || off.Counts.Acknowledged != r.rep.Counts.Acknowledged || len(off.Workers) != len(r.rep.Workers) {
		t.Fatalf("offline judge differs: exit %d %s %v %d findings %+v, online exit %d %s %v %d findings %+v",
			code, off.Verdict, off.Conclusive, len(off.Findings), off.Counts, r.Code, r.rep.Verdict, r.rep.Conclusive, len(r.rep.Findings), r.rep.Counts)
	}
}

// percentilesMatch checks the merged p50, p90 and p99 against the exact percentiles of the
// union of the history's load latencies, within the histogram's precision (3 significant
// digits, and the microsecond it records in).
func percentilesMatch(t *testing.T, rep report.Report, hist *history.History) {
	t.Helper()
	var lat []float64
	for _, rec := range hist.Records {
		if rec.Kind != history.KindRequest || rec.Setup || (rec.Error != "" && rec.Status == 0) {
			continue
		}
		from := rec.Start
		if !rec.Intended.IsZero() {
			from = rec.Intended
		}
		lat = append(lat, float64(rec.End.Sub(from).Microseconds())/1000)
	}
	sort.Float64s(lat)
	if int64(len(lat)) != rep.Latency.Count {
		t.Fatalf("%d latencies in the history, the histogram holds %d", len(lat), rep.Latency.Count)
	}
	for _, p := range []struct {
		q   float64
		got float64
	}{{50, rep.Latency.P50}, {90, rep.Latency.P90}, {99, rep.Latency.P99}} {
		want := lat[max(int(float64(len(lat))*p.q/100+0.5)-1, 0)]
		if d := p.got - want; d > want*0.002+0.002 || -d > want*0.002+0.002 {
			t.Errorf("p%v: merged histogram %.3fms, the history's latencies %.3fms", p.q, p.got, want)
		}
	}
}

// TestWorkersAgainstTheSandbox: K = 3 workers against a sandbox of 3 replicas. Without locking
// they find races; with redlock the run is clean and conclusive; the merged counts are the sum
// of the workers'; the merged percentiles are the history's; the merged history, judged again
// offline, gives the same verdict; and no Job or pod is left.
func TestWorkersAgainstTheSandbox(t *testing.T) {
	w := newWorld(t)
	for _, tc := range []struct {
		locking string
		want    int
	}{{"none", 1}, {"redlock", 0}} {
		t.Run(tc.locking, func(t *testing.T) {
			sb := sandboxenv.Start(t, "--replicas", "3", "--locking", tc.locking)
			dir := t.TempDir()
			hist, junit, html := filepath.Join(dir, "history.jsonl"), filepath.Join(dir, "junit.xml"), filepath.Join(dir, "report.html")
			r := w.stress(t, 3, []string{"--target", strings.Join(sb.Replicas, ","), "--state-dir", sb.StateDir, "--requests", "900",
				"--concurrency", "150", "--analyses", "6", "--settle-timeout", "10s", "--history", hist, "--junit", junit, "--html", html}, nil)
			if r.Code != tc.want {
				t.Fatalf("exit %d, want %d: verdict %s findings %v reasons %v\n%s", r.Code, tc.want, r.rep.Verdict, r.rep.FindingCounts, r.rep.Reasons, r.Stderr)
			}
			if tc.want == 0 && (!r.rep.Conclusive || r.rep.Partial) {
				t.Fatalf("redlock: not clean and conclusive: %+v", r.rep.Reasons)
			}
			t.Logf("exit %d, %s\n%s", r.Code, r.rep.Headline(), r.Stderr)
			h := readHistory(t, hist)
			merged(t, r, 3, h)
			percentilesMatch(t, r.rep, h)
			for _, f := range []struct{ path, want string }{{junit, "<testsuite"}, {html, "<html"}} {
				if b, err := os.ReadFile(f.path); err != nil || !strings.Contains(string(b), f.want) {
					t.Errorf("%s: %v, want a file holding %q", f.path, err, f.want)
				}
			}
			w.judgeAgain(t, r, hist, "--state-dir", sb.StateDir)
			w.nothingLeft(t, r.rep.Run)
			for _, want := range []string{"worker 0 (pod ", "worker 2 (pod ", "deleted Job " + w.ns + "/osctl-stress-" + r.rep.Run} {
				if !strings.Contains(r.Stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
				}
			}
		})
	}
}

var pidRe = regexp.MustCompile(`worker (\d+) \(pod ([^)]+)\) ready: osctl \S+, pid (\d+)`)

// pids reads the workers' pids from the coordinator's stderr.
func pids(s string) map[int]int {
	out := map[int]int{}
	for _, m := range pidRe.FindAllStringSubmatch(s, -1) {
		i, _ := strconv.Atoi(m[1])
		p, _ := strconv.Atoi(m[3])
		out[i] = p
	}
	return out
}

// loadUnderWay waits until the coordinator says the load began and the history holds records of
// every worker's load.
func loadUnderWay(t *testing.T, errb *testenv.LockedBuffer, hist string, k int) {
	t.Helper()
	testenv.Eventually(t, 60*time.Second, "the load to begin", func() bool { return strings.Contains(errb.String(), "load workers\n") }, errb.String)
	testenv.Eventually(t, 60*time.Second, "records of every worker's load", func() bool {
		b, _ := os.ReadFile(hist)
		for i := 0; i < k; i++ {
			if !strings.Contains(string(b), fmt.Sprintf(`"worker":%d,`, i)) || !bytes.Contains(b, []byte(`"op":"upload"`)) {
				return false
			}
		}
		return bytes.Count(b, []byte("\n")) > 200
	}, errb.String)
}

// TestWorkerKilledMidRun: worker 1 is killed during the load. The others finish; the run is
// partial, worker 1 is lost and its requests in flight are ambiguous; the races already found
// still give exit 1; no Job or pod is left.
func TestWorkerKilledMidRun(t *testing.T) {
	w := newWorld(t)
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "none")
	hist := filepath.Join(t.TempDir(), "history.jsonl")
	r := w.stress(t, 3, []string{"--target", strings.Join(sb.Replicas, ","), "--state-dir", sb.StateDir, "--requests", "6000",
		"--concurrency", "150", "--analyses", "6", "--background-wait", "0", "--settle-timeout", "10s", "--history", hist}, func(cmd *exec.Cmd, errb *testenv.LockedBuffer) {
		loadUnderWay(t, errb, hist, 3)
		pid := pids(errb.String())[1]
		if pid == 0 {
			t.Fatalf("no pid for worker 1:\n%s", errb.String())
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatalf("killing worker 1 (pid %d): %v", pid, err)
		}
	})
	t.Logf("exit %d, %s\n%s", r.Code, r.rep.Headline(), r.Stderr)
	if r.Code != 1 || r.rep.Verdict != "races" || !r.rep.Partial {
		t.Fatalf("exit %d verdict %s partial %v, want races (exit 1) in a partial run\n%s", r.Code, r.rep.Verdict, r.rep.Partial, r.Stderr)
	}
	if len(r.rep.Workers) != 3 || !r.rep.Workers[1].Lost || r.rep.Workers[0].Lost || r.rep.Workers[2].Lost {
		t.Fatalf("workers %+v: want worker 1 lost, the others not", r.rep.Workers)
	}
	if !strings.Contains(r.rep.StopReason, "worker 1 (pod ") || !strings.Contains(r.rep.StopReason, "requests in flight are ambiguous") {
		t.Errorf("stop reason %q", r.rep.StopReason)
	}
	h := readHistory(t, hist)
	merged(t, r, 3, h)
	lost := 0
	for _, rec := range h.Records {
		if rec.Worker != nil && *rec.Worker == 1 && strings.Contains(rec.Error, "was lost before this request's answer") {
			if rec.Outcome != history.Ambiguous {
				t.Fatalf("a request in flight on the lost worker is %s", rec.Outcome)
			}
			lost++
		}
	}
	if lost == 0 {
		t.Errorf("no request of worker 1 was in flight when it was killed")
	}
	w.judgeAgain(t, r, hist, "--state-dir", sb.StateDir)
	w.nothingLeft(t, r.rep.Run)
}

// TestWorkersInterrupted: Ctrl-C during the load stops every worker, collects what they have,
// writes the partial report and deletes the Job.
func TestWorkersInterrupted(t *testing.T) {
	w := newWorld(t)
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "redlock")
	hist := filepath.Join(t.TempDir(), "history.jsonl")
	r := w.stress(t, 3, []string{"--target", strings.Join(sb.Replicas, ","), "--state-dir", sb.StateDir, "--requests", "100000",
		"--concurrency", "150", "--analyses", "6", "--background-wait", "0", "--history", hist}, func(cmd *exec.Cmd, errb *testenv.LockedBuffer) {
		loadUnderWay(t, errb, hist, 3)
		_ = cmd.Process.Signal(syscall.SIGINT)
	})
	t.Logf("exit %d, %s\n%s", r.Code, r.rep.Headline(), r.Stderr)
	if r.Code != 2 || !r.rep.Partial || r.rep.StopReason != "interrupted" || r.rep.Counts.Total >= 100000 {
		t.Fatalf("exit %d partial %v stop %q sent %d: want a partial, interrupted report (exit 2)\n%s", r.Code, r.rep.Partial, r.rep.StopReason, r.rep.Counts.Total, r.Stderr)
	}
	for _, wk := range r.rep.Workers {
		if wk.Lost {
			t.Errorf("worker %d was lost: %s", wk.Index, wk.Reason)
		}
	}
	merged(t, r, 3, readHistory(t, hist))
	w.nothingLeft(t, r.rep.Run)
}

// TestWorkersJobsProfile: the jobs profile from 3 workers still finds the ceiling of a job API
// whose every replica keeps its own queue and ceiling; judged again offline, the same verdict.
func TestWorkersJobsProfile(t *testing.T) {
	t.Parallel() // after the serial tests, two of which change what osctl is in the pods
	w := newWorld(t)
	sb := sandboxenv.Start(t, "--queue", "local", "--replicas", "2", "--max-active", "2", "--job-duration", "3s", "--dispatch-interval", "5s",
		"--api-token", "elb-token-4e1f9a7c", "--hide-ceiling")
	hist := filepath.Join(t.TempDir(), "jobs.jsonl")
	r := w.stress(t, 3, []string{"--profile", "jobs", "--target", strings.Join(sb.Replicas, ","), "--requests", "12", "--concurrency", "12",
		"--max-active", "2", "--header", "X-ELB-API-Token: elb-token-4e1f9a7c", "--history", hist}, nil)
	t.Logf("exit %d, %s\n%s", r.Code, r.rep.Headline(), r.Stderr)
	if r.Code != 1 || r.rep.Verdict != "races" || r.rep.FindingCounts["ceiling"] == 0 {
		t.Fatalf("exit %d verdict %s findings %v reasons %v, want the ceiling found\n%s", r.Code, r.rep.Verdict, r.rep.FindingCounts, r.rep.Reasons, r.Stderr)
	}
	if b, _ := os.ReadFile(hist); bytes.Contains(b, []byte("elb-token-4e1f9a7c")) || strings.Contains(r.Stderr+r.Stdout, "elb-token-4e1f9a7c") {
		t.Fatal("the token was written out")
	}
	h := readHistory(t, hist)
	merged(t, r, 3, h)
	w.judgeAgain(t, r, hist)
	w.nothingLeft(t, r.rep.Run)
}

// TestWorkerPodsNeverReady: pods that cannot be scheduled fail the run before any load, with
// exit 2 and the scheduler's reason; the Job is deleted.
func TestWorkerPodsNeverReady(t *testing.T) {
	t.Parallel() // after the serial tests, two of which change what osctl is in the pods
	w := newWorld(t)
	args := append(w.workerArgs(2), "--worker-ready-timeout", "3s", "--worker-node-selector", "pool=nowhere")
	r := osctl(t, append([]string{"stress", "--profile", "http", "--target", "http://127.0.0.1:1/", "--requests", "10"}, args...)...)
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2\n%s", r.Code, r.Output)
	}
	for _, want := range []string{"were not ready within 3s", "is not scheduled", "node(s) didn't match Pod's node affinity/selector", "deleted Job " + w.ns} {
		if !strings.Contains(r.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, r.Output)
		}
	}
	w.noJobs(t)
}

// TestWorkersRBAC: a ServiceAccount bound to the documented Role runs the workers; without
// pods/exec it gets exit 2, one line naming the verb, and nothing is created.
func TestWorkersRBAC(t *testing.T) {
	t.Parallel() // after the serial tests, two of which change what osctl is in the pods
	w := newWorld(t)
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, workers.RBACDoc))
	if err != nil {
		t.Fatal(err)
	}
	w.k.Kubectl(t, "-n", w.ns, "create", "serviceaccount", "osctl")
	yaml := strings.ReplaceAll(string(doc), "namespace: openstudio", "namespace: "+w.ns)
	w.k.Apply(t, w.ns, yaml)
	kc := w.k.ServiceAccountKubeconfig(t, w.ns, "osctl")
	srv := newCounter(t)
	runAs := func(extra ...string) (int, string) {
		args := []string{"stress", "--profile", "http", "--target", srv.URL + "/", "--requests", "200", "--concurrency", "4",
			"--kubeconfig", kc, "-n", w.ns, "--workers", "2", "--worker-image", "registry.invalid/osctl:test", "-o", "json"}
		r := osctl(t, append(args, extra...)...)
		return r.Code, r.Output
	}
	if code, out := runAs(); code != 0 || !strings.Contains(out, "deleted Job") {
		t.Fatalf("with the documented Role: exit %d\n%s", code, out)
	}
	w.k.Kubectl(t, "-n", w.ns, "patch", "role", "osctl-stress-workers", "--type=json", `-p=[{"op":"remove","path":"/rules/2"}]`)
	testenv.WaitFor(t, 10*time.Second, "the Role to lose pods/exec", func() (bool, error) {
		out, _ := exec.Command(filepath.Join(w.k.BinDir, "kubectl"), "--kubeconfig", kc, "auth", "can-i", "create", "pods/exec", "-n", w.ns).CombinedOutput()
		return strings.TrimSpace(string(out)) == "no", nil
	})
	before := srv.n.Load()
	code, out := runAs()
	if code != 2 || !strings.Contains(out, "create pods/exec") || !strings.Contains(out, "Nothing was created") || strings.Count(strings.TrimSpace(out), "\n") > 0 ||
		!strings.Contains(out, "--workers needs") {
		t.Fatalf("without pods/exec: exit %d, want 2 and one line naming --workers and create pods/exec:\n%s", code, out)
	}
	jobs, err := w.k.Clients.Clientset.BatchV1().Jobs(w.ns).List(context.Background(), metav1.ListOptions{})
	if err != nil || len(jobs.Items) != 0 || srv.n.Load() != before {
		t.Fatalf("something was created or sent: %d jobs, %d requests (%v)", len(jobs.Items), srv.n.Load()-before, err)
	}
}

// counter is a loopback HTTP server that counts its requests.
type counter struct {
	*httptest.Server
	n atomic.Int64
}

func newCounter(t *testing.T) *counter {
	c := &counter{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { c.n.Add(1) }))
	t.Cleanup(c.Close)
	return c
}

// TestWorkerCannotExec: pods whose image has no osctl on its PATH (here the exec finds none)
// fail the run before any load, with exit 2 naming the worker; the Job is deleted and nothing
// was sent.
func TestWorkerCannotExec(t *testing.T) {
	w := newWorld(t)
	w.refusedBeforeLoad(t, filepath.Join(t.TempDir(), "no-osctl-here"), "could not start `osctl stress worker`", "executable file not found")
}

// TestWorkerOtherVersion: workers whose image holds another osctl version refuse the run's
// configuration; the run exits 2 naming both versions, before any load, and the Job is deleted.
func TestWorkerOtherVersion(t *testing.T) {
	w := newWorld(t)
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "osctl")
	build := exec.Command("go", "build", "-ldflags", "-X github.com/osctl/osctl/internal/cli.Version=v0.0.1-other", "-o", other, "./cmd/osctl")
	build.Dir, build.Env = root, append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the other osctl: %v\n%s", err, out)
	}
	w.refusedBeforeLoad(t, other, "runs osctl v0.0.1-other, and this osctl is dev")
}

// refusedBeforeLoad makes the pods' osctl the one at inPods, runs a two-worker http run, and
// checks that it exits 2 saying each of wants and that it deleted the Job, that no request
// reached the target, and that no Job is left.
func (w *world) refusedBeforeLoad(t *testing.T, inPods string, wants ...string) {
	t.Helper()
	w.k.OsctlInPods(t, inPods)
	t.Cleanup(func() { w.k.OsctlInPods(t, w.bin) })
	srv := newCounter(t)
	args := append([]string{"stress", "--profile", "http", "--target", srv.URL + "/", "--requests", "10"}, w.workerArgs(2)...)
	r := osctl(t, args...)
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2\n%s", r.Code, r.Output)
	}
	t.Logf("%s", r.Output)
	for _, want := range append(wants, "deleted Job "+w.ns) {
		if !strings.Contains(r.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, r.Output)
		}
	}
	if srv.n.Load() != 0 {
		t.Errorf("%d requests were sent", srv.n.Load())
	}
	w.noJobs(t)
}
