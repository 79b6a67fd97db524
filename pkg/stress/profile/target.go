package profile

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// Doer sends one HTTP request (an *http.Client).
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Recorder receives every history record a profile makes. It must be safe for concurrent use.
type Recorder func(*history.Record)

// ServerStatus is what a target answers on GET /status. The sandbox says so with Sandbox true;
// a real OpenStudio Server answers without it.
type ServerStatus struct {
	Status    string `json:"status"`
	Sandbox   bool   `json:"sandbox"`
	Replica   int    `json:"replica"`
	Locking   string `json:"locking,omitempty"`
	Queue     string `json:"queue,omitempty"`
	MaxActive int    `json:"max_active,omitempty"`
}

// Target is one base URL of the run and what it said it is.
type Target struct {
	URL    *url.URL
	Status ServerStatus
	// Reachable is false when GET /status failed (the error is in ProbeErr).
	Reachable bool
	ProbeErr  string
}

// ParseTargets parses a comma-separated list of base URLs. Only http and https URLs with a host
// are accepted.
func ParseTargets(list []string) ([]*url.URL, error) {
	var out []*url.URL
	for _, item := range list {
		for _, s := range strings.Split(item, ",") {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			u, err := url.Parse(s)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return nil, fmt.Errorf("target %q is not an http(s) URL with a host, such as http://127.0.0.1:8080", s)
			}
			out = append(out, u)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no target given: pass {Targets} URL[,URL...]")
	}
	return out, nil
}

// Probe asks a target's GET /status what it is.
func Probe(ctx context.Context, c Doer, base *url.URL) Target {
	t := Target{URL: base}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	a, err := Exchange(ctx, c, http.MethodGet, JoinPath(base, "/status"), nil, nil, 1<<20)
	if err != nil {
		t.ProbeErr = err.Error()
		return t
	}
	t.Reachable = true
	if a.Status != http.StatusOK {
		t.ProbeErr = fmt.Sprintf("GET /status answered %d", a.Status)
		return t
	}
	_ = json.Unmarshal(a.Body, &t.Status)
	return t
}

// JoinPath is base with path (from its leading slash) after it.
func JoinPath(base *url.URL, path string) string {
	return strings.TrimRight(base.String(), "/") + path
}
