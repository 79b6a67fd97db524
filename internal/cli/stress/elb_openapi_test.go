package stress

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/elbenv"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/jobs"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/report"
)

// These tests run osctl against the real elb-openapi (third_party/elb-openapi-352a1f4, under
// Debian's FastAPI stack), with only kubectl, azcopy, az and elastic-blast faked
// (internal/testenv/elbenv). Each is bounded: a few jobs of a few seconds.

// elbToken is the service's ELB_OPENAPI_API_TOKEN in these tests: it must appear in nothing
// osctl prints or writes.
const elbToken = "elb-real-token-5c0ffee1"

// elbRun is one osctl run against the real service, with what it wrote.
type elbRun struct {
	testenv.OsctlRun
	Rep  report.Report
	hist string
	dir  string
}

// elbStress runs `osctl stress --profile jobs` against every replica with the token, writing
// the history and the report in a new directory, and checks that the token is in none of what
// the run printed or wrote.
func elbStress(t *testing.T, svc *elbenv.Service, extra ...string) elbRun {
	t.Helper()
	dir := t.TempDir()
	r := elbRun{hist: filepath.Join(dir, "run.jsonl"), dir: dir}
	args := append([]string{"stress", "--profile", "jobs", "--target", strings.Join(svc.Replicas, ","), "--header", "X-ELB-API-Token: " + elbToken,
		"--history", r.hist, "--report", filepath.Join(dir, "report.json"), "--junit", filepath.Join(dir, "junit.xml"), "-o", "json"}, extra...)
	r.OsctlRun = runOsctl(t, args...)
	r.Rep = jobsReport(t, r.OsctlRun)
	noToken(t, r.Stdout, r.Stderr)
	noTokenInFiles(t, dir)
	return r
}

func noToken(t *testing.T, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if strings.Contains(s, elbToken) {
			t.Errorf("the token appears in osctl's output: %.300s", s[max(0, strings.Index(s, elbToken)-100):])
		}
	}
}

func noTokenInFiles(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err == nil && strings.Contains(string(b), elbToken) {
			t.Errorf("the token appears in %s", e.Name())
		}
	}
}

// listed returns the service's own list of the jobs a replica holds: id -> status.
func listed(t *testing.T, base string) map[string]string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/v1/jobs", nil)
	req.Header.Set("X-ELB-API-Token", elbToken)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct {
		Jobs []struct {
			ID     string `json:"job_id"`
			Status string `json:"status"`
		} `json:"jobs"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s/v1/jobs: %d %v", base, resp.StatusCode, err)
	}
	out := map[string]string{}
	for _, j := range v.Jobs {
		out[j.ID] = j.Status
	}
	return out
}

// TestRealELBCeilingBreach: three replicas, each enforcing a ceiling of 1 in its own memory, run
// three jobs at once. osctl says so, as a lower bound.
func TestRealELBCeilingBreach(t *testing.T) {
	t.Parallel()
	svc := elbenv.Start(t, elbenv.Options{Replicas: 3, MaxActive: 1, Token: elbToken, JobDuration: 3 * time.Second,
		Latency: 100 * time.Millisecond, DispatchInterval: time.Second})
	r := elbStress(t, svc, "--requests", "3", "--concurrency", "3", "--max-active", "1", "--dispatch-interval", "1s")
	if r.Code != 1 || r.Rep.FindingCounts[detect.Ceiling] == 0 {
		t.Fatalf("exit %d, verdict %s, findings %v, reasons %v\n%s", r.Code, r.Rep.Verdict, r.Rep.FindingCounts, r.Rep.Reasons, r.Stderr)
	}
	for _, f := range r.Rep.Findings {
		if f.Kind == detect.Ceiling && (!strings.HasPrefix(f.Got, "at least ") || !strings.Contains(f.Got, "seen active from")) {
			t.Errorf("the ceiling finding does not say it is a lower bound, or when: %s", f.Got)
		}
	}
	t.Logf("3 replicas x 1: exit %d in %v, %s", r.Code, r.Wall.Round(time.Second), r.Rep.Findings[0].Got)
}

// TestRealELBOneReplicaClean: one replica holds its ceiling of 1; two jobs of 4 s polled every
// second are seen long enough that the clean verdict is earned.
func TestRealELBOneReplicaClean(t *testing.T) {
	t.Parallel()
	svc := elbenv.Start(t, elbenv.Options{Replicas: 1, MaxActive: 1, Token: elbToken, JobDuration: 4 * time.Second,
		Latency: 100 * time.Millisecond, DispatchInterval: time.Second})
	r := elbStress(t, svc, "--requests", "2", "--concurrency", "2", "--max-active", "1", "--dispatch-interval", "1s")
	if r.Code != 0 || r.Rep.Verdict != detect.Clean || !r.Rep.Conclusive || jobs.PartOf(&r.Rep).Power == nil || !jobs.PartOf(&r.Rep).Power.Ceiling {
		t.Fatalf("exit %d, verdict %s, findings %v, reasons %v, power %+v\n%s", r.Code, r.Rep.Verdict, r.Rep.FindingCounts, r.Rep.Reasons, jobs.PartOf(&r.Rep).Power, r.Stderr)
	}
	t.Logf("1 replica x 1: exit %d in %v; seen: %s", r.Code, r.Wall.Round(time.Second), jobs.PartOf(&r.Rep).Power.Line(1))
}

// TestRealELBShortJobsNeverClean: two replicas of ceiling 2 run four 1 s jobs at once (of 8), but
// every cloud call takes 0.8 s, so a status read takes seconds and hardly a job is seen active by
// two polls.
// The run must not call that clean: it is inconclusive, says why, and what the service's own job
// list shows. The mutation test: judged again without the power rule, the same history is the
// false CLEAN (exit 0) the rule exists to prevent.
func TestRealELBShortJobsNeverClean(t *testing.T) {
	t.Parallel()
	svc := elbenv.Start(t, elbenv.Options{Replicas: 2, MaxActive: 2, Token: elbToken, JobDuration: time.Second, Latency: 800 * time.Millisecond})
	r := elbStress(t, svc, "--requests", "8", "--concurrency", "8", "--max-active", "2")
	if r.Code == 0 {
		t.Fatalf("exit 0 (%s) for a service that ran 4 jobs at once at a ceiling of 2\n%s", r.Rep.Verdict, r.Stderr)
	}
	reasons := strings.Join(r.Rep.Reasons, "; ")
	if r.Code != 2 || !strings.Contains(reasons, "could not have seen a breach of the ceiling 2") || !strings.Contains(reasons, "the service's own job list shows") ||
		!strings.Contains(reasons, "poll less often") {
		t.Fatalf("exit %d, verdict %s, findings %v, reasons %s\n%s", r.Code, r.Rep.Verdict, r.Rep.FindingCounts, reasons, r.Stderr)
	}
	h := readHistory(t, r.hist)
	o := detect.OptionsOf(h)
	o.IgnorePower, o.Rules = true, jobs.Rules{}
	without := report.Report{Verdict: detect.Judge(h, nil, o).Verdict}
	if without.ExitCode() != 0 {
		t.Fatalf("without the power rule: %s, want the false clean (exit 0) it prevents", without.Verdict)
	}
	t.Logf("2 replicas x 2, 1 s jobs, 0.8 s calls: exit %d in %v (without the power rule: exit 0); seen: %s", r.Code, r.Wall.Round(time.Second), jobs.PartOf(&r.Rep).Power.Line(2))
}

// TestRealELBTimeoutCleanup: with --timeout 1s every submit times out, yet the service makes
// every job. Cleanup names them all from the id rule, deletes them, and leaves another client's
// job alone.
func TestRealELBTimeoutCleanup(t *testing.T) {
	t.Parallel()
	svc := elbenv.Start(t, elbenv.Options{Replicas: 2, MaxActive: 2, Token: elbToken, JobDuration: time.Second, Latency: 400 * time.Millisecond})
	other, _ := profile.JobIDFromKey("", "another-client-job")
	req, _ := http.NewRequest(http.MethodPost, svc.Replicas[0]+"/v1/jobs", strings.NewReader(string(profile.DefaultJobBody("another-client-job"))))
	req.Header.Set("X-ELB-API-Token", elbToken)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req); err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("another client's submit: %v %v", resp, err)
	}
	r := elbStress(t, svc, "--requests", "8", "--concurrency", "8", "--max-active", "2", "--timeout", "1s", "--job-timeout", "8s")
	h := readHistory(t, r.hist)
	var ids []string
	for _, rec := range h.Records {
		if rec.Kind == "request" && rec.KeyJob != "" {
			ids = append(ids, rec.KeyJob)
		}
	}
	c := runOsctl(t, "stress", "cleanup", "--history", r.hist, "--header", "X-ELB-API-Token: "+elbToken, "--yes", "--in-flight-wait", "8s")
	noToken(t, c.Stdout, c.Stderr)
	// Every submit timed out and was replayed: each line says what its replay got.
	if c.Code != 0 || strings.Count(c.Stdout, "(submit #") != 8 || strings.Count(c.Stdout, "its replay") != 8 {
		t.Fatalf("cleanup: exit %d\n%s%s", c.Code, c.Stdout, c.Stderr)
	}
	left := map[string]string{}
	for _, u := range svc.Replicas {
		for id, st := range listed(t, u) {
			left[id] = st
		}
	}
	for _, id := range ids {
		if st, ok := left[id]; ok {
			t.Errorf("job %s of the run is still on the service (%s) after cleanup", id, st)
		}
	}
	if _, ok := left[other]; !ok || len(ids) != 8 {
		t.Errorf("another client's job %s is gone, or the run named %d jobs (want 8): %v", other, len(ids), left)
	}
	t.Logf("--timeout 1s: run exit %d in %v, cleanup in %v:\n%s", r.Code, r.Wall.Round(time.Second), c.Wall.Round(time.Second), lastLine(c.Stdout))
}

// TestRealELBReplayRace: one replica at a ceiling of 1, two submits one after the other. The
// first one's upload stalls past its 1 s timeout; its replay is answered as a new job (the
// replica does not hold it yet) and the job runs; then the stalled submit saves the job again, as
// queued, over the running one, and the replica gives its slot to the second job while the first
// still runs. osctl names the replay race, not the queue split.
func TestRealELBReplayRace(t *testing.T) {
	t.Parallel()
	// The 1 s timeout that cuts the first submit off also bounds the status polls: on a loaded
	// machine (load average 48 seen beside the rest of make test) a poll that times out leaves the
	// run inconclusive (exit 2), and a fresh service gets one more load, at most three in all. A
	// conclusive run must find the race every time.
	var r elbRun
	for try := 1; ; try++ {
		svc := elbenv.Start(t, elbenv.Options{Replicas: 1, MaxActive: 1, Token: elbToken, JobDuration: 3 * time.Second,
			Latency: 100 * time.Millisecond, DispatchInterval: time.Second, FirstUploadStall: 4 * time.Second})
		r = elbStress(t, svc, "--requests", "2", "--concurrency", "1", "--max-active", "1", "--dispatch-interval", "1s", "--timeout", "1s")
		if r.Code != 2 || r.Rep.Conclusive || try == 3 {
			break
		}
		t.Logf("load %d inconclusive on a loaded machine, one more: %v", try, r.Rep.Reasons)
	}
	race := 0
	for _, f := range r.Rep.Findings {
		if f.Cause == detect.CauseReplayRace {
			race++
		}
	}
	if r.Code != 1 || race == 0 || race != len(r.Rep.Findings) {
		t.Fatalf("exit %d, findings %+v, reasons %v\n%s", r.Code, r.Rep.Findings, r.Rep.Reasons, r.Stderr)
	}
	if !strings.Contains(r.Rep.Next(), "replay race") {
		t.Errorf("the next step blames another cause: %s", r.Rep.Next())
	}
	t.Logf("replay race: exit %d in %v: %s", r.Code, r.Wall.Round(time.Second), r.Rep.Findings[0].Got)
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	return s[strings.LastIndex(s, "\n")+1:]
}
