package attack

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"
)

// BenchmarkConnsDo measures one worker's request and answer on a reused loopback connection,
// for the CPU and allocations the attacker spends per request (go test -bench ConnsDo -benchmem).
func BenchmarkConnsDo(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("ok\n"))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL + "/")
	tmpl := (&http.Request{Method: http.MethodGet, URL: u, Host: u.Host, Header: http.Header{}}).WithContext(context.Background())
	c := NewConns(1, 10*time.Second)
	defer c.Close()
	b.ReportAllocs()
	for b.Loop() {
		req := new(http.Request)
		*req = *tmpl
		resp, err := c.Do(0, req)
		if err != nil {
			b.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d", resp.StatusCode)
		}
		drain(resp)
	}
}
