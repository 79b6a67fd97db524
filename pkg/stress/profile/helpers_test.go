package profile

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

// forward sends r, with body, to the URL to as a proxy does (the same method and headers) and
// returns the answer; when the upstream cannot be reached it answers 502 on w and returns nil.
func forward(w http.ResponseWriter, r *http.Request, body []byte, to string) *http.Response {
	req, _ := http.NewRequest(r.Method, to, bytes.NewReader(body))
	req.Header = r.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return nil
	}
	return resp
}

const jobsToken = "profile-test-token-91c2"

// jobAPI starts an in-process sandbox job API (one replica) and returns its URL.
func jobAPI(t *testing.T, cfg sandbox.Config) string {
	t.Helper()
	cfg.StateDir = t.TempDir()
	cfg.Jobs.APIToken = jobsToken
	cfg.Masters = []redis.UniversalClient{testenv.StartRedis(t).Client()}
	ctx, cancel := context.WithCancel(context.Background())
	s, err := sandbox.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); cancel() })
	return ts.URL
}
