package rollout_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/rollout"
)

func TestHTTPGate(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
		case "/down":
			w.WriteHeader(http.StatusBadGateway)
		case "/slow":
			<-release
		}
	}))
	defer srv.Close()
	defer close(release)
	ctx := context.Background()
	if r := (&rollout.HTTPGate{URL: srv.URL + "/ok", Latency: time.Minute}).Check(ctx); r.Status != preflight.Pass {
		t.Fatalf("ok: %+v", r)
	}
	if r := (&rollout.HTTPGate{URL: srv.URL + "/down", Latency: time.Minute}).Check(ctx); r.Status != preflight.Fail || !strings.Contains(r.Message, "502") {
		t.Fatalf("down: %+v", r)
	}
	// /slow never answers before the bound: the gate fails, naming the bound.
	if r := (&rollout.HTTPGate{URL: srv.URL + "/slow", Latency: 50 * time.Millisecond}).Check(ctx); r.Status != preflight.Fail {
		t.Fatalf("slow: %+v", r)
	}
	if r := (&rollout.HTTPGate{URL: "http://user:hunter22@127.0.0.1:1/x", Latency: time.Second}).Check(ctx); r.Status != preflight.Fail || strings.Contains(r.Message, "hunter22") {
		t.Fatalf("refused or leaked a password: %+v", r)
	}
}

func TestCmdGate(t *testing.T) {
	ctx := context.Background()
	if r := (&rollout.CmdGate{Command: "test \"$OSCTL_X\" = 1", Env: []string{"OSCTL_X=1"}}).Check(ctx); r.Status != preflight.Pass {
		t.Fatalf("exit 0: %+v", r)
	}
	if r := (&rollout.CmdGate{Command: "echo stress found 3 races; exit 3"}).Check(ctx); r.Status != preflight.Fail || !strings.Contains(r.Message, "exited 3: stress found 3 races") {
		t.Fatalf("exit 3: %+v", r)
	}
	// A command still running when the context ends is killed with its children.
	pidFile := filepath.Join(t.TempDir(), "pid")
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan rollout.GateResult)
	go func() { done <- (&rollout.CmdGate{Command: "sleep 300 & echo $! > " + pidFile + "; wait"}).Check(cctx) }()
	for i := 0; i < 200; i++ {
		if b, _ := os.ReadFile(pidFile); len(b) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if r := <-done; r.Status != preflight.Fail || !strings.Contains(r.Message, "did not finish") {
		t.Fatalf("cancelled: %+v", r)
	}
	b, _ := os.ReadFile(pidFile)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file %q", b)
	}
	for i := 0; i < 100 && syscall.Kill(pid, 0) == nil; i++ {
		time.Sleep(20 * time.Millisecond)
	}
	if syscall.Kill(pid, 0) == nil {
		t.Fatalf("the gate command's child %d survived", pid)
	}
}

func TestResultsGate(t *testing.T) {
	g := &rollout.ResultsGate{GateName: "nfs", Run: func(context.Context) ([]preflight.Result, error) {
		return []preflight.Result{{ID: "nfs.noac", Status: preflight.Fail, Subject: "pod/web-2", Message: "attribute cache on"},
			{ID: "nfs.hard", Status: preflight.Pass}}, nil
	}}
	r := g.Check(context.Background())
	if r.Status != preflight.Fail || !strings.Contains(r.Message, "nfs.noac pod/web-2: attribute cache on") {
		t.Fatalf("%+v", r)
	}
}
