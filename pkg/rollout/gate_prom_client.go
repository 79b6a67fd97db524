package rollout

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/osctl/osctl/pkg/setting"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"

	"github.com/osctl/osctl/pkg/redact"
)

// What an empty PromQL result does (PromGates.NoData).
const (
	NoDataFail = "fail"
	NoDataPass = "pass"
)

// PromGates is the PromQL gates' part of a GateConfig: the queries and how to reach Prometheus.
// The bearer token stays in its file; the journal keeps only a digest of the settings.
type PromGates struct {
	Queries    []string `json:"queries,omitempty"`
	URL        string   `json:"url,omitempty"`
	CAFile     string   `json:"caFile,omitempty"`
	BearerFile string   `json:"bearerFile,omitempty"`
	NoData     string   `json:"noData,omitempty"` // NoDataFail ("" too) or NoDataPass
}

// Validate checks the PromQL gates' settings on their own, without I/O.
func (p PromGates) Validate() error {
	switch p.NoData {
	case "", NoDataFail, NoDataPass:
	default:
		return setting.Errorf("Prom.NoData", "%q: use %s (the default: a gate that sees no data fails) or %s", p.NoData, NoDataFail, NoDataPass)
	}
	if len(p.Queries) == 0 {
		if p.URL != "" || p.CAFile != "" || p.BearerFile != "" || p.NoData == NoDataPass {
			return setting.Errorf("Prom.Queries", ": {Prom.URL}, {Prom.CAFile}, {Prom.BearerFile} and {Prom.NoData} are for PromQL gates: add a query")
		}
		return nil
	}
	for _, q := range p.Queries {
		if strings.TrimSpace(q) == "" {
			return setting.Errorf("Prom.Queries", ": a query is empty: give a PromQL condition, for example 'sum(rate(http_requests_total{code=~\"5..\"}[1m])) / sum(rate(http_requests_total[1m])) < bool 0.01'")
		}
	}
	if p.URL == "" {
		return setting.Errorf("Prom.URL", ": a PromQL gate needs the Prometheus URL (for example http://prometheus.monitoring:9090)")
	}
	u, err := url.Parse(p.URL)
	shown := redact.URL(p.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return setting.Errorf("Prom.URL", "%q: use http://host:port or https://host:port (a path prefix is allowed)", shown)
	}
	if p.CAFile != "" && u.Scheme != "https" {
		return setting.Errorf("Prom.CAFile", "is set but {Prom.URL} %q is not https://", shown)
	}
	if _, hasPW := u.User.Password(); hasPW && p.BearerFile != "" {
		return setting.Errorf("Prom.URL", "%q holds a password, and {Prom.BearerFile} is set too: give one of them", shown)
	}
	return nil
}

// gates builds one PromGate per query on one client. It reads the CA file; the bearer file is
// read on every request, so that a rotated token is picked up.
func (p PromGates) gates() ([]Gate, error) {
	if len(p.Queries) == 0 {
		return nil, nil
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	rt, err := p.roundTripper()
	if err != nil {
		return nil, err
	}
	c, err := api.NewClient(api.Config{Address: p.URL, RoundTripper: rt})
	if err != nil {
		return nil, setting.Errorf("Prom.URL", "%q: %s", redact.URL(p.URL), redact.Text(err.Error()))
	}
	a := v1.NewAPI(c)
	out := make([]Gate, len(p.Queries))
	for i, q := range p.Queries {
		out[i] = &PromGate{GateName: PromGateName(i), Query: q, API: a, NoDataPasses: p.NoData == NoDataPass, Server: ServerOf(p.URL)}
	}
	return out, nil
}

func (p PromGates) roundTripper() (http.RoundTripper, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone() // the gate's context bounds every request
	if p.CAFile != "" {
		pem, err := os.ReadFile(p.CAFile)
		if err != nil {
			return nil, fmt.Errorf("reading the Prometheus CA file: %v", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, setting.Errorf("Prom.CAFile", "%s holds no PEM certificate", p.CAFile)
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	if p.BearerFile == "" {
		return noRedirects{next: tr}, nil
	}
	if _, err := readBearer(p.BearerFile); err != nil {
		return nil, err
	}
	return noRedirects{next: &bearerRoundTripper{file: p.BearerFile, next: tr}}, nil
}

// noRedirects turns a redirect into an error naming where it points, before the client could
// follow it: the Prometheus client never sends a query, or the bearer token, anywhere but to the
// URL it was given.
type noRedirects struct{ next http.RoundTripper }

func (n noRedirects) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := n.next.RoundTrip(req)
	if err != nil || !isRedirect(resp) {
		return resp, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return nil, fmt.Errorf("answered %d, a redirect to %s: osctl does not follow redirects (nor sends the bearer token there): give the Prometheus URL that answers", resp.StatusCode, locationOf(resp))
}

// bearerRoundTripper sends the token of a file as "Authorization: Bearer", read on each request.
type bearerRoundTripper struct {
	file string
	next http.RoundTripper
}

func (b *bearerRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	tok, err := readBearer(b.file)
	if err != nil {
		return nil, err
	}
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+tok)
	return b.next.RoundTrip(req)
}

func readBearer(file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("reading the Prometheus bearer token file: %v", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", setting.Errorf("Prom.BearerFile", "%s is empty", file)
	}
	return tok, nil
}
