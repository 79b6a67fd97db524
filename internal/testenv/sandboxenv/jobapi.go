package sandboxenv

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
)

// JobAPI starts an in-process sandbox job API (one replica, cfg with its own state directory,
// the API token token and a real redis-server of its own) and returns its URL; it stops when the
// test ends.
func JobAPI(t testing.TB, cfg sandbox.Config, token string) string {
	t.Helper()
	cfg.StateDir = t.TempDir()
	cfg.Jobs.APIToken = token
	cfg.Masters = []redis.UniversalClient{testenv.StartRedis(t).Client()}
	ctx, cancel := context.WithCancel(context.Background())
	s, err := sandbox.New(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); cancel() })
	return ts.URL
}

// Forward sends r, with body, to the URL to as a proxy does (the same method and headers) and
// returns the answer; when the upstream cannot be reached it answers 502 on w and returns nil.
func Forward(w http.ResponseWriter, r *http.Request, body []byte, to string) *http.Response {
	req, _ := http.NewRequest(r.Method, to, bytes.NewReader(body))
	req.Header = r.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return nil
	}
	return resp
}
