package sandbox_test

import (
	"context"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
)

// replica is one in-process sandbox replica on a loopback httptest server.
type replica struct {
	ts   *httptest.Server
	url  string
	cfg  sandbox.Config
	srv  *sandbox.Server
	stop func()
}

// startReplica starts a replica over cfg: a state directory and a redis-server of its own
// unless cfg gives them, a worker polling every 10ms unless cfg says otherwise. stop ends it
// (its worker stops at its next look for a job); call it before the test ends.
func startReplica(t *testing.T, cfg sandbox.Config) *replica {
	t.Helper()
	return startReplicaOn(t, cfg, nil)
}

// startReplicaOn is startReplica with the job dispatcher on clk (the real clock when nil).
func startReplicaOn(t *testing.T, cfg sandbox.Config, clk *sandbox.FakeClock) *replica {
	t.Helper()
	if cfg.StateDir == "" {
		cfg.StateDir = t.TempDir()
	}
	if len(cfg.Masters) == 0 {
		cfg.Masters = []redis.UniversalClient{testenv.StartRedis(t).Client()}
	}
	if cfg.BackgroundInterval == 0 {
		cfg.BackgroundInterval = 10 * time.Millisecond
	}
	var stopped atomic.Bool
	cfg.Logf = func(format string, a ...any) {
		if !stopped.Load() {
			t.Logf(format, a...)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s, err := newServer(ctx, cfg, clk)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	var once sync.Once
	return &replica{ts: ts, url: ts.URL, cfg: cfg, srv: s, stop: func() {
		once.Do(func() { stopped.Store(true); ts.Close(); cancel() })
	}}
}

func newServer(ctx context.Context, cfg sandbox.Config, clk *sandbox.FakeClock) (*sandbox.Server, error) {
	if clk == nil {
		return sandbox.New(ctx, cfg)
	}
	return sandbox.NewWithClock(ctx, cfg, clk)
}
