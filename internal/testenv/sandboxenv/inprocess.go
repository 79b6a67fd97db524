package sandboxenv

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
)

// InProcess is a sandbox served inside the test process: replicas of pkg/sandbox over one state
// directory and one real redis-server, each on its own loopback HTTP server, as `osctl sandbox
// up` serves them from its processes. It has no supervisor: no replica is restarted and no fault
// can be injected (a test of the nemesis needs Start).
type InProcess struct {
	// StateDir is the shared state directory, a t.TempDir().
	StateDir string
	// Replicas are the replicas' base URLs, in order.
	Replicas []string
	// Redis is the redis-server the replicas share (their Resque queues and, with redlock, their
	// locks).
	Redis *testenv.Redis

	mu  sync.Mutex
	log strings.Builder
}

// Serve starts that many replicas in this process, each configured as cfg (sandbox.DefaultConfig()
// with the test's changes: the defaults of `osctl sandbox up`; its StateDir, Replica, Replicas,
// Masters, Host and Logf are set here), and serves them until the test ends. What the replicas log is kept (Log), and
// logged if the test failed.
func Serve(t testing.TB, replicas int, cfg sandbox.Config) *InProcess {
	t.Helper()
	s := &InProcess{StateDir: t.TempDir(), Redis: testenv.StartRedis(t)}
	ctx, cancel := context.WithCancel(context.Background())
	var servers []*httptest.Server
	t.Cleanup(func() {
		for _, ts := range servers {
			ts.Close()
		}
		cancel()
		if t.Failed() {
			t.Logf("in-process sandbox log:\n%s", s.Log())
		}
	})
	for i := range replicas {
		c := cfg
		c.StateDir, c.Replica, c.Replicas = s.StateDir, i, replicas
		c.Masters = []redis.UniversalClient{s.Redis.Client()}
		c.Host = fmt.Sprintf("test-sandbox-%d", i)
		c.Logf = s.logf(i)
		srv, err := sandbox.New(ctx, c)
		if err != nil {
			t.Fatalf("in-process sandbox replica %d: %v", i, err)
		}
		ts := httptest.NewServer(srv.Handler())
		servers = append(servers, ts)
		s.Replicas = append(s.Replicas, ts.URL)
	}
	return s
}

// logf is replica i's Logf: one line each, prefixed as `osctl sandbox up` prefixes them.
func (s *InProcess) logf(i int) func(string, ...any) {
	return func(format string, a ...any) {
		s.mu.Lock()
		defer s.mu.Unlock()
		fmt.Fprintf(&s.log, "replica %d: "+strings.TrimSuffix(format, "\n")+"\n", append([]any{i}, a...)...)
	}
}

// Log is what the replicas logged so far (lost leases, fenced writes, failures).
func (s *InProcess) Log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}
