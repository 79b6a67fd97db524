package httpload

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// TestHTTPProfileBodies: every body carries its own nonce, and the records name them.
func TestHTTPProfileBodies(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen[string(b)] = true
		mu.Unlock()
	}))
	defer srv.Close()
	u, _ := profile.ParseTargets([]string{srv.URL + "/route"})
	var recs []history.Record
	var rmu sync.Mutex
	p := &Routes{Run: "0badc0de", Targets: []profile.Target{{URL: u[0]}}, Method: "POST", Body: `{"n":"{{nonce}}","s":{{seq}}}`, Requests: 50,
		Record: func(r *history.Record) { rmu.Lock(); recs = append(recs, *r); rmu.Unlock() }}
	st := attack.Run(context.Background(), attack.NewConns(8, 5*time.Second), p.Source(), attack.Options{Concurrency: 8})
	if st.Counts().Acknowledged != 50 || len(seen) != 50 || len(recs) != 50 {
		t.Fatalf("%+v %d bodies %d records", st.Counts(), len(seen), len(recs))
	}
	for b := range seen {
		var v struct{ N string }
		if json.Unmarshal([]byte(b), &v) != nil || !strings.HasPrefix(v.N, "osctl-0badc0de-") {
			t.Fatalf("body %q", b)
		}
	}
}
