package rollout

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPromProbeWithoutFormatQuery: a server without the format_query API (404) gets the query
// run once instead. A query that parses but fails as it runs passes the probe, as it would with
// format_query (the gate then fails it at its step); one that does not parse is refused.
func TestPromProbeWithoutFormatQuery(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/format_query" {
			http.NotFound(w, r)
			return
		}
		_ = r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		switch q := r.Form.Get("query"); {
		case strings.Contains(q, "(("):
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"status":"error","errorType":"bad_data","error":"1:2: parse error: unexpected left parenthesis"}`))
		case strings.Contains(q, "on("):
			w.WriteHeader(http.StatusUnprocessableEntity)
			_, _ = w.Write([]byte(`{"status":"error","errorType":"execution","error":"found duplicate series for the match group"}`))
		default:
			_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"vector","result":[]}}`))
		}
	}))
	t.Cleanup(srv.Close)
	cases := []struct {
		query string
		ok    bool
	}{
		{"up < bool 1", true},
		{"a * on(job) b", true},
		{"((up", false},
	}
	for _, c := range cases {
		gs, err := PromGates{Queries: []string{c.query}, URL: srv.URL}.gates()
		if err != nil {
			t.Fatal(err)
		}
		err = gs[0].(*PromGate).Probe(context.Background())
		if c.ok && err != nil {
			t.Errorf("%q: %v, want it to pass the probe", c.query, err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "rejects it")) {
			t.Errorf("%q: %v, want it refused as a query that does not parse", c.query, err)
		}
	}
}
