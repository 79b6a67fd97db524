package stress_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/openstudio"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// TestRunJudgesResqueFailedList: a run given the app's Redis (Deps.ResqueFailed) reads the failed
// extractions from Resque's failed list there, in place of the sandbox's own endpoint: a failure
// of one of the run's analyses during the run is a failed-extraction finding, live and offline
// from the history, and so is a failure of the run's analysis 0 stamped an hour before the run
// (a server clock behind); a failure of another analysis from before the run and a malformed
// entry are not, and the notice counts them; the list is left as it was.
func TestRunJudgesResqueFailedList(t *testing.T) {
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Config{StateDir: t.TempDir(), Masters: []redis.UniversalClient{testenv.StartRedis(t).Client()},
		Namespace: "t", Locking: sandbox.LockingRedlock, BackgroundInterval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(sb.Handler())
	t.Cleanup(ts.Close)
	app := testenv.StartRedis(t).Client() // the app's Redis, Resque's
	const key = "resque:failed"
	const run = "0badc0de"
	entry := func(at time.Time, analysis string) string {
		b, _ := json.Marshal(map[string]any{"failed_at": at.UTC().Format("2006/01/02 15:04:05 MST"),
			"payload":   map[string]any{"class": "ResqueJobs::InitializeAnalysis", "args": []any{"batch_run", analysis, "job-1", map[string]any{}}},
			"exception": "RuntimeError", "error": "Extraction of the seed.zip file failed 3 times with error File not found",
			"backtrace": []string{"app/models/analysis.rb:472"}, "worker": "web-2:77:analysis_wrappers", "queue": "analysis_wrappers"})
		return string(b)
	}
	given := []string{entry(time.Now().Add(-time.Hour), "someone-else"), entry(time.Now().Add(-time.Hour), profile.AnalysisID(run, 0)), "{torn"}
	if err := app.RPush(ctx, key, given[0], given[1], given[2]).Err(); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(ts.URL)
	cfg := stress.DefaultConfig()
	cfg.Targets, cfg.Run, cfg.Requests, cfg.Concurrency, cfg.MinContended = []*url.URL{u}, run, 30, 4, 0
	cfg.Options = openstudio.Options{Analyses: 2} // no settle wait, nothing held back
	var hist bytes.Buffer
	failedDuringLoad := false
	d := stress.Deps{History: &hist, ResqueFailed: &stress.ResqueFailed{Client: app, Key: key, Name: "redis://app"},
		Observer: stress.Observer{Phase: func(phase, _ string) {
			if phase == stress.PhaseLoad { // the run's analysis 1 fails its extraction while the load runs
				given = append(given, entry(time.Now(), profile.AnalysisID(run, 1)))
				failedDuringLoad = app.RPush(ctx, key, given[3]).Err() == nil
			}
		}}}
	rep, err := stress.Run(ctx, cfg, d)
	if err != nil || !failedDuringLoad {
		t.Fatalf("run: %v (failure pushed: %v)", err, failedDuringLoad)
	}
	check := func(how string, findings []detect.Finding) {
		t.Helper()
		var failed []string
		for _, f := range findings {
			if f.Kind == detect.FailedExtraction {
				failed = append(failed, f.Object)
			}
		}
		slices.Sort(failed)
		if want := []string{profile.AnalysisID(run, 0), profile.AnalysisID(run, 1)}; !slices.Equal(failed, want) {
			t.Errorf("%s: failed extractions of %v, want %v's", how, failed, want)
		}
	}
	check("live", rep.Findings)
	if rep.Verdict != "races" {
		t.Errorf("verdict %s, want races", rep.Verdict)
	}
	notices := strings.Join(rep.Notices, "\n")
	for _, want := range []string{"failed background jobs read from redis://app resque:failed: 2 failed extractions", "1 failed before the run began, ignored", "1 failures of this run's analyses are stamped before the run began, judged all the same", "1 malformed entries skipped"} {
		if !strings.Contains(notices, want) {
			t.Errorf("notices %q do not say %q", notices, want)
		}
	}
	h, err := history.Read(&hist)
	if err != nil {
		t.Fatal(err)
	}
	check("offline", stress.Judge(h, nil, stress.JudgeOptions{}).Findings)
	if after, err := app.LRange(ctx, key, 0, -1).Result(); err != nil || !slices.Equal(after, given) {
		t.Errorf("the failed list after the run is %q (%v), want the %d entries it was given, unchanged", after, err, len(given))
	}
}

// TestRunSaysFailedJobsWereNotRead: a run with starts against a target that does not say it is
// the sandbox (as a real server does not), without the app's Redis, says in a notice that it did
// not read the failed jobs, and a run that is clean stays clean for it.
func TestRunSaysFailedJobsWereNotRead(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	sb, err := sandbox.New(ctx, sandbox.Config{StateDir: dir, Masters: []redis.UniversalClient{testenv.StartRedis(t).Client()},
		Namespace: "t", Locking: sandbox.LockingRedlock, BackgroundInterval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// The sandbox's API, but its GET /status without "sandbox": true, as the real server's.
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/status" {
			_ = json.NewEncoder(w).Encode(profile.ServerStatus{Status: "ok"})
			return
		}
		sb.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	u, _ := url.Parse(ts.URL)
	cfg := stress.DefaultConfig()
	cfg.Targets, cfg.Requests, cfg.Concurrency, cfg.MinContended = []*url.URL{u}, 40, 4, 0
	cfg.Options = openstudio.Options{Analyses: 2, AllowStart: true, SettleTimeout: time.Minute, SettleQuiet: 2 * time.Second}
	rep, err := stress.Run(ctx, cfg, stress.Deps{State: snapshot.Local{Root: dir}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(rep.Operations, func(o detect.OpStats) bool { return o.Op == history.OpStart && o.Acknowledged > 0 }) {
		t.Fatalf("no start was acknowledged: %+v", rep.Operations)
	}
	notices := strings.Join(rep.Notices, "\n")
	if !strings.Contains(notices, "the failed background jobs were not read: a real OpenStudio Server keeps them in its Redis") {
		t.Errorf("notices %q do not say the failed jobs were not read", notices)
	}
	if rep.Verdict != "clean" {
		t.Errorf("verdict %s %v, want clean: the notice does not change the verdict", rep.Verdict, rep.Reasons)
	}
}
