package rollout

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/redact"
)

// HTTPGate passes when a GET of URL answers 2xx within Latency.
type HTTPGate struct {
	URL     string
	Latency time.Duration // the bound; the default is 2s
	Client  *http.Client  // the default is a client with no redirects to other hosts checked
}

// Name implements Gate.
func (g *HTTPGate) Name() string { return "http" }

// Check implements Gate.
func (g *HTTPGate) Check(ctx context.Context) GateResult {
	lat := g.Latency
	if lat <= 0 {
		lat = 2 * time.Second
	}
	c := g.Client
	if c == nil {
		c = http.DefaultClient
	}
	shown := redact.URL(g.URL)
	// Allow up to twice the bound so that a slow answer is reported with its latency.
	ctx, cancel := context.WithTimeout(ctx, 2*lat)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.URL, nil)
	if err != nil {
		return GateResult{Status: preflight.Fail, Message: fmt.Sprintf("bad URL %s: %v", shown, err)}
	}
	req.Header.Set("User-Agent", "osctl-rollout-gate")
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return GateResult{Status: preflight.Fail, Message: fmt.Sprintf("GET %s: %s", shown, redact.Text(err.Error()))}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	took := time.Since(start)
	switch {
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return GateResult{Status: preflight.Fail, Message: fmt.Sprintf("GET %s answered %d in %s, not 2xx", shown, resp.StatusCode, took.Round(time.Millisecond))}
	case took > lat:
		return GateResult{Status: preflight.Fail, Message: fmt.Sprintf("GET %s answered %d in %s, slower than the gate's latency bound %s", shown, resp.StatusCode, took.Round(time.Millisecond), lat)}
	}
	return GateResult{Status: preflight.Pass, Message: fmt.Sprintf("GET %s answered %d in %s", shown, resp.StatusCode, took.Round(time.Millisecond))}
}
