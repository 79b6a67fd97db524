package rollout

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/preflight"
)

// redirectWorld is a real loopback server that redirects every request to another one, which
// counts what reaches it.
type redirectWorld struct {
	from, to *httptest.Server
	reached  atomic.Int32
	tokens   atomic.Int32 // requests to the target that carried an Authorization header
}

func newRedirectWorld(t *testing.T, code int) *redirectWorld {
	w := &redirectWorld{}
	w.to = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.reached.Add(1)
		if r.Header.Get("Authorization") != "" {
			w.tokens.Add(1)
		}
	}))
	t.Cleanup(w.to.Close)
	w.from = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, w.to.URL+r.URL.Path+"?api_key=s3cr3t-in-location", code)
	}))
	t.Cleanup(w.from.Close)
	return w
}

// TestHTTPGateDoesNotFollowRedirects: a redirect fails the HTTP gate, naming where it points
// (without its query string); the target receives nothing.
func TestHTTPGateDoesNotFollowRedirects(t *testing.T) {
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		w := newRedirectWorld(t, code)
		r := (&HTTPGate{URL: w.from.URL + "/health?token=t0ken-in-url", Client: &http.Client{}}).Check(context.Background())
		want := "a redirect to " + w.to.URL + "/health: the gate does not follow redirects"
		if r.Status != preflight.Fail || !strings.Contains(r.Message, want) || strings.Contains(r.Message, "s3cr3t") || strings.Contains(r.Message, "t0ken") {
			t.Fatalf("%d: %+v, want a failure naming %q", code, r, want)
		}
		if n := w.reached.Load(); n != 0 {
			t.Fatalf("%d: the redirect target received %d requests", code, n)
		}
	}
}

// TestPromClientDoesNotFollowRedirects: the Prometheus client's probe and query fail on a
// redirect, naming where it points; the target receives no request, so no bearer token.
func TestPromClientDoesNotFollowRedirects(t *testing.T) {
	w := newRedirectWorld(t, http.StatusTemporaryRedirect)
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("bearer-s3cr3t\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	gs, err := PromGates{Queries: []string{"up == bool 1"}, URL: w.from.URL, BearerFile: token}.gates()
	if err != nil {
		t.Fatal(err)
	}
	g := gs[0].(*PromGate)
	want := "a redirect to " + w.to.URL + "/api/v1/"
	if err := ProbeGates(context.Background(), gs, 10*time.Second); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "s3cr3t") {
		t.Fatalf("probe: %v, want an error naming %q", err, want)
	}
	if r := g.Check(context.Background()); r.Status != preflight.Fail || !strings.Contains(r.Message, want) || !strings.Contains(r.Message, "does not follow redirects") {
		t.Fatalf("check: %+v, want a failure naming %q", r, want)
	}
	if n, tok := w.reached.Load(), w.tokens.Load(); n != 0 || tok != 0 {
		t.Fatalf("the redirect target received %d requests (%d with a token)", n, tok)
	}
}
