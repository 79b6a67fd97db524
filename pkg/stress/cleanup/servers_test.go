package cleanup

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/osctl/osctl/pkg/stress/history"
)

// server is a real HTTP server on loopback that counts what it is sent: a job API
// (DELETE /v1/jobs/{id}, GET /v1/jobs/{id}/status) over jobs, and an OpenStudio analysis API
// (GET /status, GET and DELETE /analyses/{id}.json) over analyses. With redirect set, it answers
// every request with a 307 there instead.
type server struct {
	*httptest.Server
	mu       sync.Mutex
	jobs     map[string]bool
	analyses map[string]map[string]any
	requests []string // "METHOD path"
	tokens   []string // every X-ELB-API-Token it was sent
	redirect string
}

func newServer(t *testing.T) *server {
	s := &server{jobs: map[string]bool{}, analyses: map[string]map[string]any{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

func (s *server) has(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.jobs[id] || s.analyses[id] != nil
}

func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.Method+" "+r.URL.Path)
	if tok := r.Header.Get("X-ELB-API-Token"); tok != "" {
		s.tokens = append(s.tokens, tok)
	}
	if s.redirect != "" {
		http.Redirect(w, r, s.redirect+r.URL.Path, http.StatusTemporaryRedirect)
		return
	}
	p := r.URL.Path
	switch {
	case p == "/status":
		writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "sandbox": false})
	case strings.HasPrefix(p, "/v1/jobs/"):
		s.job(w, r, strings.TrimPrefix(p, "/v1/jobs/"))
	case strings.HasPrefix(p, "/analyses/") && strings.HasSuffix(p, ".json"):
		s.analysis(w, r, strings.TrimSuffix(strings.TrimPrefix(p, "/analyses/"), ".json"))
	default:
		http.NotFound(w, r)
	}
}

func (s *server) job(w http.ResponseWriter, r *http.Request, rest string) {
	id, status := strings.CutSuffix(rest, "/status")
	switch {
	case !s.jobs[id]:
		writeJSON(w, http.StatusNotFound, map[string]any{"detail": "Job " + id + " not found"})
	case status && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, map[string]any{"job_id": id, "status": "queued"})
	case !status && r.Method == http.MethodDelete:
		delete(s.jobs, id)
		writeJSON(w, http.StatusOK, map[string]any{"job_id": id, "status": "deleted"})
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

func (s *server) analysis(w http.ResponseWriter, r *http.Request, id string) {
	a := s.analyses[id]
	switch {
	case r.Method == http.MethodGet && a == nil:
		writeJSON(w, http.StatusOK, map[string]any{"analysis": nil}) // the real server's answer
	case r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, map[string]any{"analysis": a})
	case r.Method == http.MethodDelete && a == nil:
		writeJSON(w, http.StatusInternalServerError, map[string]any{"error": "Mongoid::Errors::DocumentNotFound"})
	case r.Method == http.MethodDelete:
		delete(s.analyses, id)
		w.WriteHeader(http.StatusNoContent)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// writeHistory writes a history file of a header and records, as osctl stress writes one, and
// returns its path.
func writeHistory(t *testing.T, hd history.Header, recs ...history.Record) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "run.jsonl")
	fh, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	w := history.NewWriter(fh)
	hd.Schema = history.SchemaVersion
	_ = w.Write(&history.Record{Kind: history.KindHeader, Header: &hd})
	for i := range recs {
		if recs[i].Kind == "" {
			recs[i].Kind = history.KindRequest
		}
		_ = w.Write(&recs[i])
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return p
}

func readHistory(t *testing.T, p string) *history.History {
	t.Helper()
	h, err := history.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func asUsage(err error, ue **UsageError) bool {
	u, ok := err.(*UsageError)
	*ue = u
	return ok
}
