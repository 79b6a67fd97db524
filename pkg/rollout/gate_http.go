package rollout

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/osctl/osctl/pkg/preflight"
)

// HTTPGate passes when a GET of URL answers 2xx within Latency. A redirect fails it, naming
// where it points: the gate never follows one. Its messages (kept in the journal) name the
// gate's server by scheme and host only.
type HTTPGate struct {
	URL     string
	Latency time.Duration // the bound; the default is 2s
	Client  *http.Client  // the default is http.DefaultClient's transport; redirects are never followed either way
}

// Name implements Gate.
func (g *HTTPGate) Name() string { return "http" }

// Check implements Gate.
func (g *HTTPGate) Check(ctx context.Context) GateResult {
	lat := g.Latency
	if lat <= 0 {
		lat = 2 * time.Second
	}
	c := http.Client{}
	if g.Client != nil {
		c = *g.Client
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	shown := ServerOf(g.URL)
	// Allow up to twice the bound so that a slow answer is reported with its latency.
	ctx, cancel := context.WithTimeout(ctx, 2*lat)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.URL, nil)
	if err != nil {
		return GateResult{Status: preflight.Fail, Message: fmt.Sprintf("the gate's URL (on %s) is not a valid URL", shown)}
	}
	req.Header.Set("User-Agent", "osctl-rollout-gate")
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return GateResult{Status: preflight.Fail, Message: fmt.Sprintf("GET on %s: %s", shown, maskOutput(unwrapURLError(err).Error()))}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	took := time.Since(start)
	switch {
	case isRedirect(resp):
		return GateResult{Status: preflight.Fail, Message: fmt.Sprintf("GET on %s answered %d, a redirect to %s: the gate does not follow redirects (give it the URL that answers)", shown, resp.StatusCode, locationOf(resp))}
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return GateResult{Status: preflight.Fail, Message: fmt.Sprintf("GET on %s answered %d in %s, not 2xx", shown, resp.StatusCode, took.Round(time.Millisecond))}
	case took > lat:
		return GateResult{Status: preflight.Fail, Message: fmt.Sprintf("GET on %s answered %d in %s, slower than the gate's latency bound %s", shown, resp.StatusCode, took.Round(time.Millisecond), lat)}
	}
	return GateResult{Status: preflight.Pass, Message: fmt.Sprintf("GET on %s answered %d in %s", shown, resp.StatusCode, took.Round(time.Millisecond))}
}

// unwrapURLError drops the method and URL that net/http puts in front of a request's error.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}
