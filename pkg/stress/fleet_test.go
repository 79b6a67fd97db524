package stress

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// lossyFleet is a Fleet whose load goes through a real in-process Worker to a real HTTP server,
// and then reports what a fleet of pods can: a worker lost (lost), or a load that failed (fail).
type lossyFleet struct {
	*Sender
	lost string
	fail error
}

func (f lossyFleet) Load(ctx context.Context, s *Setup, rec profile.Recorder, obs LoadObserver) (*Load, error) {
	if f.fail != nil {
		return nil, f.fail
	}
	l, err := f.Sender.Load(ctx, s, rec, obs)
	if l != nil {
		l.Lost = f.lost
	}
	return l, err
}

func (f lossyFleet) Workers() int { return 2 }

// httpRun is the http profile against one real loopback server answering 200.
func httpRun(t *testing.T, requests int) (Config, *Sender) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Profile, cfg.Targets, cfg.Requests, cfg.Concurrency = ProfileHTTP, []*url.URL{u}, requests, 4
	cfg = cfg.WithDefaults()
	w, err := NewSender(cfg, profile.Shard{}, SenderDeps{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return cfg, w
}

// TestFleetLostWorkerMakesTheRunPartial: a fleet that lost a worker gives a partial report that
// says why, is never clean, and a history whose footer says the same.
func TestFleetLostWorkerMakesTheRunPartial(t *testing.T) {
	cfg, w := httpRun(t, 40)
	var hist bytes.Buffer
	const lost = "load worker 1 of 2 stopped answering: its pod was deleted"
	rep, err := Run(context.Background(), cfg, Deps{Fleet: lossyFleet{Sender: w, lost: lost}, History: &hist})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Partial || rep.StopReason != lost || rep.Verdict == "clean" {
		t.Fatalf("partial %v, stop reason %q, verdict %s: want a partial, not clean, report saying %q", rep.Partial, rep.StopReason, rep.Verdict, lost)
	}
	if !strings.Contains(strings.Join(rep.Notices, "\n"), lost) {
		t.Errorf("notices %q do not say the worker was lost", rep.Notices)
	}
	h, err := history.Read(&hist)
	if err != nil {
		t.Fatal(err)
	}
	if h.Footer == nil || !h.Footer.Partial || h.Footer.Reason != lost || h.Header.Workers != 2 {
		t.Fatalf("history header workers %d, footer %+v", h.Header.Workers, h.Footer)
	}
	// The offline judge of that history agrees.
	if again := Judge(h, nil, JudgeOptions{}); again.Verdict != rep.Verdict || !again.Partial {
		t.Errorf("judge of the history: %s partial %v, the run said %s", again.Verdict, again.Partial, rep.Verdict)
	}
}

// TestFleetLoadFailureIsAnError: a load that failed is an error naming the run, and the history
// still ends with a footer that says so.
func TestFleetLoadFailureIsAnError(t *testing.T) {
	cfg, w := httpRun(t, 10)
	var hist bytes.Buffer
	boom := errors.New("exec into load worker 0: connection reset")
	rep, err := Run(context.Background(), cfg, Deps{Fleet: lossyFleet{Sender: w, fail: boom}, History: &hist})
	if err == nil || rep != nil || !strings.Contains(err.Error(), "run "+cfg.Run) || !errors.Is(err, boom) && !strings.Contains(err.Error(), boom.Error()) {
		t.Fatalf("Run = %v, %v: want an error naming run %s and the failure", rep, err, cfg.Run)
	}
	h, rerr := history.Read(&hist)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if h.Footer == nil || !h.Footer.Partial || h.Footer.Reason != "the load failed" {
		t.Fatalf("footer %+v, want a partial footer saying the load failed", h.Footer)
	}
}

// TestFleetGivenByTheCallerCarriesTheLoad: with Deps.Fleet set, Run sends nothing itself: the
// fleet's load is the run's, and a clean one gives a clean verdict.
func TestFleetGivenByTheCallerCarriesTheLoad(t *testing.T) {
	cfg, w := httpRun(t, 30)
	rep, err := Run(context.Background(), cfg, Deps{Fleet: lossyFleet{Sender: w}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != "clean" || rep.Partial || rep.Counts.Total != 30 || rep.Counts.Acknowledged != 30 {
		t.Fatalf("verdict %s partial %v counts %+v: want clean with 30 of 30 acknowledged", rep.Verdict, rep.Partial, rep.Counts)
	}
}
