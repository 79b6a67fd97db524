// Package cleanupenv is a real HTTP server on loopback for the tests of osctl stress cleanup's
// plans: a job API and an OpenStudio analysis API that count what they are sent.
package cleanupenv

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

// Server is a real HTTP server on loopback that counts what it is sent: a job API
// (DELETE /v1/jobs/{id}, GET /v1/jobs/{id}/status) over jobs, and an OpenStudio analysis API
// (GET /status, GET and DELETE /analyses/{id}.json) over analyses. With redirect set, it answers
// every request with a 307 there instead.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	Jobs     map[string]bool
	Analyses map[string]map[string]any
	Requests []string // "METHOD path"
	Tokens   []string // every X-ELB-API-Token it was sent
	Redirect string
}

// NewServer starts a server, closed when the test ends.
func NewServer(t *testing.T) *Server {
	s := &Server{Jobs: map[string]bool{}, Analyses: map[string]map[string]any{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Count is how many requests it was sent.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.Requests)
}

// Has reports whether it holds the job or analysis id.
func (s *Server) Has(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Jobs[id] || s.Analyses[id] != nil
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Requests = append(s.Requests, r.Method+" "+r.URL.Path)
	if tok := r.Header.Get("X-ELB-API-Token"); tok != "" {
		s.Tokens = append(s.Tokens, tok)
	}
	if s.Redirect != "" {
		http.Redirect(w, r, s.Redirect+r.URL.Path, http.StatusTemporaryRedirect)
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

func (s *Server) job(w http.ResponseWriter, r *http.Request, rest string) {
	id, status := strings.CutSuffix(rest, "/status")
	switch {
	case !s.Jobs[id]:
		writeJSON(w, http.StatusNotFound, map[string]any{"detail": "Job " + id + " not found"})
	case status && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, map[string]any{"job_id": id, "status": "queued"})
	case !status && r.Method == http.MethodDelete:
		delete(s.Jobs, id)
		writeJSON(w, http.StatusOK, map[string]any{"job_id": id, "status": "deleted"})
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

func (s *Server) analysis(w http.ResponseWriter, r *http.Request, id string) {
	a := s.Analyses[id]
	switch {
	case r.Method == http.MethodGet && a == nil:
		writeJSON(w, http.StatusOK, map[string]any{"analysis": nil}) // the real server's answer
	case r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, map[string]any{"analysis": a})
	case r.Method == http.MethodDelete && a == nil:
		writeJSON(w, http.StatusInternalServerError, map[string]any{"error": "Mongoid::Errors::DocumentNotFound"})
	case r.Method == http.MethodDelete:
		delete(s.Analyses, id)
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

// WriteHistory writes a history file of a header and records, as osctl stress writes one, and
// returns its path.
func WriteHistory(t *testing.T, hd history.Header, recs ...history.Record) string {
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

// ReadHistory reads the history file at p.
func ReadHistory(t *testing.T, p string) *history.History {
	t.Helper()
	h, err := history.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
