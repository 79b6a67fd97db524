package stress_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	stresscmd "github.com/osctl/osctl/internal/cli/stress"
	judgecmd "github.com/osctl/osctl/internal/cli/stress/judge"
	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/openstudio"
	"github.com/osctl/osctl/pkg/stress/report"
)

func TestFlagValidation(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--profile", "nope", "--target", "http://127.0.0.1:1"}, "--profile"},
		{[]string{}, "no target"},
		{[]string{"--target", "http://127.0.0.1:1", "--concurrency", "0"}, "--concurrency"},
		{[]string{"--target", "http://127.0.0.1:1", "--concurrency", "auto"}, "--concurrency auto needs the tier to size the load to: add --deployment NAME"},
		{[]string{"--target", "http://127.0.0.1:1", "--concurrency", "lots"}, "or auto"},
		{[]string{"--target", "http://127.0.0.1:1", "--requests", "0"}, "--requests 0"},
		{[]string{"--target", "http://127.0.0.1:1", "--max-error-rate", "2"}, "--max-error-rate"},
		{[]string{"--target", "http://127.0.0.1:1", "--state-dir", "a", "--state-pod", "b"}, "pass one"},
		{[]string{"--target", "http://127.0.0.1:1", "--deployment", "web"}, "--kubeconfig"},
		{[]string{"--target", "http://127.0.0.1:1", "--profile", "jobs", "--dispatch-interval", "-1s"}, "--dispatch-interval"},
		{[]string{"--target", "http://127.0.0.1:1", "--profile", "jobs", "--job-timeout", "0s"}, "--job-timeout"},
		{[]string{"--target", "http://127.0.0.1:1", "--profile", "jobs", "--max-active", "-2"}, "--max-active"},
	} {
		f := cmdutil.TestFactory()
		t.Setenv("KUBECONFIG", "")
		called := false
		cmd := stresscmd.NewCmdStress(f, func(context.Context, *stresscmd.Options) error { called = true; return nil })
		cmd.SetArgs(c.args)
		cmd.SetOut(f.IO.Out)
		cmd.SetErr(f.IO.ErrOut)
		err := cmd.Execute()
		if err == nil || called || !strings.Contains(err.Error(), c.want) || cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: got %v (called %v), want a usage error about %s", c.args, err, called, c.want)
		}
	}
}

// TestWorkerWaitIsTheOldNameOfBackgroundWait: --background-wait sets how long each held-back
// part waits; --worker-wait, its old name, still does (hidden, with a deprecation notice).
func TestWorkerWaitIsTheOldNameOfBackgroundWait(t *testing.T) {
	for _, flag := range []string{"--background-wait", "--worker-wait"} {
		f := cmdutil.TestFactory()
		var got time.Duration
		cmd := stresscmd.NewCmdStress(f, func(_ context.Context, o *stresscmd.Options) error {
			got = openstudio.OptionsOf(o.Config).BackgroundWait
			return nil
		})
		cmd.SetArgs([]string{"--target", "http://127.0.0.1:1", flag, "3s"})
		cmd.SetOut(f.IO.Out)
		cmd.SetErr(f.IO.ErrOut)
		if err := cmd.Execute(); err != nil || got != 3*time.Second {
			t.Fatalf("%s 3s: BackgroundWait %v, err %v", flag, got, err)
		}
		errOut := f.IO.ErrOut.(*bytes.Buffer).String()
		if deprecated := strings.Contains(errOut, "use --background-wait"); deprecated != (flag == "--worker-wait") {
			t.Errorf("%s: stderr %q", flag, errOut)
		}
	}
	var help bytes.Buffer
	cmd := stresscmd.NewCmdStress(cmdutil.TestFactory(), nil)
	cmd.SetOut(&help)
	_ = cmd.Usage()
	if strings.Contains(help.String(), "--worker-wait") || !strings.Contains(help.String(), "--background-wait") {
		t.Errorf("the help should list --background-wait and hide --worker-wait:\n%s", help.String())
	}
}

// TestHTTPProfileRunAndJudge runs `osctl stress --profile http` in-process against a real HTTP
// server, then judges its history offline: same verdict, same counts.
func TestHTTPProfileRunAndJudge(t *testing.T) {
	var n, withUA atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := r.Header["User-Agent"]; ok {
			withUA.Add(1)
		}
		if n.Add(1)%10 == 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	hist, rep, junit, html := filepath.Join(dir, "h.jsonl"), filepath.Join(dir, "r.json"), filepath.Join(dir, "j.xml"), filepath.Join(dir, "r.html")
	io, _, out, _ := cmdutil.Test()
	f := cmdutil.New("test")
	f.IO = io
	cmd := stresscmd.NewCmdStress(f, nil)
	cmd.SetArgs([]string{"--profile", "http", "--target", srv.URL + "/x", "--requests", "300", "--concurrency", "30", "--method", "POST",
		"--body", "{{nonce}}", "--history", hist, "--report", rep, "--junit", junit, "--html", html, "-o", "json"})
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	var online report.Report
	if err := json.Unmarshal(out.Bytes(), &online); err != nil {
		t.Fatal(err)
	}
	if online.Counts.Total != 300 || online.Counts.Status503 != 30 || online.Counts.Rejected != 30 || online.Verdict != "clean" || online.Schema != report.Schema {
		t.Fatalf("%+v", online)
	}
	if withUA.Load() != 0 {
		t.Fatalf("%d requests sent a User-Agent; the http profile sends none unless --header gives one", withUA.Load())
	}
	if attack.EventLoopSupported && online.Engine != attack.EngineEventLoop {
		t.Fatalf("plain http, closed loop: engine %q, want the event loops", online.Engine)
	}
	var fromFile report.Report
	b, _ := os.ReadFile(rep)
	if err := json.Unmarshal(b, &fromFile); err != nil || fromFile.Verdict != "clean" || fromFile.FinishedAt.IsZero() {
		t.Fatalf("--report: %v %+v", err, fromFile)
	}
	for _, p := range []string{junit, html} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Fatalf("%s not written: %v", p, err)
		}
	}
	io2, _, out2, _ := cmdutil.Test()
	f.IO = io2
	jc := judgecmd.NewCmdJudge(f, nil)
	jc.SetArgs([]string{"--history", hist, "-o", "json"})
	if err := jc.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	var offline report.Report
	if err := json.Unmarshal(out2.Bytes(), &offline); err != nil {
		t.Fatal(err)
	}
	if offline.Verdict != online.Verdict || offline.Counts.Total != 300 || offline.Counts.Status503 != 30 || offline.Run != online.Run {
		t.Fatalf("offline %+v", offline.Counts)
	}
	// The run kept no records and judge read none into memory: both folded them, to one breakdown.
	if !reflect.DeepEqual(offline.PerTarget, online.PerTarget) || !reflect.DeepEqual(offline.OverTime, online.OverTime) || online.OverTime == nil ||
		len(online.PerTarget) != 1 || online.PerTarget[0].Sent != 300 {
		t.Fatalf("per target %+v over time %+v offline, %+v %+v online", offline.PerTarget, offline.OverTime, online.PerTarget, online.OverTime)
	}
}

func TestInterruptedRunIsPartial(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 100)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	io, _, out, _ := cmdutil.Test()
	f := cmdutil.New("test")
	f.IO = io
	hist := filepath.Join(t.TempDir(), "h.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := stresscmd.NewCmdStress(f, nil)
	cmd.SetArgs([]string{"--profile", "http", "--target", srv.URL, "--requests", "100", "--concurrency", "10", "--history", hist, "-o", "json"})
	go func() {
		for i := 0; i < 10; i++ { // all 10 in flight, held by the server: then Ctrl-C
			<-arrived
		}
		cancel()
	}()
	err := cmd.ExecuteContext(ctx)
	if cmdutil.ExitCode(err) != 2 {
		t.Fatalf("want exit 2 (inconclusive, partial), got %v", err)
	}
	var r report.Report
	if jerr := json.Unmarshal(out.Bytes(), &r); jerr != nil || !r.Partial || r.Verdict != "inconclusive" {
		t.Fatalf("%v %+v", jerr, r)
	}
	b, _ := os.ReadFile(hist)
	if !strings.Contains(string(b), `"partial":true`) {
		t.Fatalf("history lacks the partial footer: %s", b)
	}
}

func TestParseHeaders(t *testing.T) {
	h, err := cmdutil.ParseHeaders([]string{"X-A: 1", "x-a:2", "Authorization: Bearer t"})
	if err != nil || strings.Join(h["X-A"], ",") != "1,2" || h.Get("Authorization") != "Bearer t" {
		t.Fatalf("%v %v", h, err)
	}
	for _, bad := range []string{"no colon", ": v", "X A: v", "X-A: a\r\nInjected: 1", "X-A: a\x00"} {
		if _, err := cmdutil.ParseHeaders([]string{bad}); err == nil || cmdutil.ExitCode(err) != 2 {
			t.Errorf("%q: %v, want a usage error", bad, err)
		}
	}
}

// TestUnreachableTargetSaysWhy: a run whose requests all fail is inconclusive (exit 2) and says
// what the first failure was, not only that nothing was acknowledged.
func TestUnreachableTargetSaysWhy(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	io, _, _, _ := cmdutil.Test()
	f := cmdutil.New("test")
	f.IO = io
	cmd := stresscmd.NewCmdStress(f, nil)
	cmd.SetArgs([]string{"--profile", "http", "--target", url, "--requests", "20", "--concurrency", "4"})
	err := cmd.ExecuteContext(context.Background())
	if cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), "20 requests got no answer") || !strings.Contains(err.Error(), "connection refused") ||
		!strings.Contains(err.Error(), strings.TrimPrefix(url, "http://")) {
		t.Fatalf("got %v", err)
	}
}

// TestConcurrencyAutoWithWorkersIsAUsageError: auto sizes a load sent from this process; with
// --workers the run needs a number, and says so before it reads or creates anything.
func TestConcurrencyAutoWithWorkersIsAUsageError(t *testing.T) {
	r := testenv.RunOsctl(t, time.Minute, "stress", "--target", "http://127.0.0.1:1", "--concurrency", "auto", "--deployment", "web",
		"--kubeconfig", filepath.Join(t.TempDir(), "none"), "--workers", "2")
	if r.Code != 2 || !strings.Contains(r.Stderr, "--concurrency auto sizes the load of this process only: with --workers give --concurrency N") ||
		strings.Count(strings.TrimSpace(r.Stderr), "\n") > 1 {
		t.Fatalf("exit %d, stderr %q; want exit 2 and one line asking for a number", r.Code, r.Stderr)
	}
}
