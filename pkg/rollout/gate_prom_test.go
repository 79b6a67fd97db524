package rollout

import (
	"context"
	"encoding/pem"
	"math"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/redisproc"
)

func vec(vals ...float64) model.Vector {
	var v model.Vector
	for i, x := range vals {
		v = append(v, &model.Sample{Metric: model.Metric{"pod": model.LabelValue(string(rune('a' + i)))}, Value: model.SampleValue(x)})
	}
	return v
}

// TestJudgeProm: at least one sample and none 0 or NaN passes; an empty result is "no data".
func TestJudgeProm(t *testing.T) {
	for _, tc := range []struct {
		name   string
		val    model.Value
		noData bool
		status preflight.Status
		msg    string
	}{
		{"one true condition", model.Vector{{Metric: model.Metric{}, Value: 1}}, false, preflight.Pass, "returned 1"},
		{"all samples true", vec(1, 0.5), false, preflight.Pass, `returned {pod="a"} 1, {pod="b"} 0.5`},
		{"a false condition", vec(1, 0), false, preflight.Fail, `returned {pod="b"} 0, {pod="a"} 1: 1 of 2 samples are 0`},
		{"NaN", vec(math.NaN()), false, preflight.Fail, "1 of 1 samples are NaN"},
		{"no data", model.Vector{}, false, preflight.Fail, "returned no data: a gate that sees no data does not pass"},
		{"no data allowed", model.Vector{}, true, preflight.Warn, "passes: no data is set to pass"},
		{"nil result", nil, false, preflight.Fail, "no data"},
		{"scalar true", &model.Scalar{Value: 1}, false, preflight.Pass, "returned 1"},
		{"scalar false", &model.Scalar{Value: 0}, false, preflight.Fail, "1 of 1 samples are 0"},
		{"range vector", model.Matrix{}, false, preflight.Fail, "range vector"},
		{"string", &model.String{Value: "x"}, false, preflight.Fail, "returned a string"},
		{"many samples", vec(1, 1, 1, 1, 1, 1, 1), false, preflight.Pass, "and 2 more"},
	} {
		got := JudgeProm(tc.val, tc.noData)
		if got.Status != tc.status || !strings.Contains(got.Message, tc.msg) {
			t.Errorf("%s: %s %q, want %s containing %q", tc.name, got.Status, got.Message, tc.status, tc.msg)
		}
		if got.Value == "" {
			t.Errorf("%s: no value", tc.name)
		}
	}
}

func TestPromGatesValidate(t *testing.T) {
	ok := PromGates{Queries: []string{"up == bool 1"}, URL: "http://prom:9090"}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p    PromGates
		want string
	}{
		{PromGates{URL: "http://prom:9090"}, "are for PromQL gates: add a query"},
		{PromGates{Queries: []string{"up"}}, "Prom.URL: a PromQL gate needs the Prometheus URL"},
		{PromGates{Queries: []string{" "}, URL: "http://p:1"}, "a query is empty"},
		{PromGates{Queries: []string{"up"}, URL: "prom:9090"}, "use http://host:port"},
		{PromGates{Queries: []string{"up"}, URL: "ftp://u:hunter2@p:1"}, `"ftp://u:xxxxx@p:1"`},
		{PromGates{Queries: []string{"up"}, URL: "http://p:1", CAFile: "ca.pem"}, "not https://"},
		{PromGates{Queries: []string{"up"}, URL: "http://u:pw@p:1", BearerFile: "tok"}, "give one of them"},
		{PromGates{Queries: []string{"up"}, URL: "http://p:1", NoData: "warn"}, `Prom.NoData "warn"`},
	} {
		err := tc.p.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.p, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("error shows the password: %v", err)
		}
	}
}

// promWorld is a real Prometheus scraping a test exporter, behind a TLS front that requires a
// bearer token or a basic-auth password.
type promWorld struct {
	exp   *testenv.Exporter
	prom  *testenv.Prometheus
	front string // https://127.0.0.1:port
	ca    string // the front's certificate, PEM
	token string // the front's bearer token, in a file
}

func startPromWorld(t *testing.T) *promWorld {
	t.Helper()
	w := &promWorld{exp: testenv.StartExporter(t)}
	w.exp.Set("osctl_test_error_ratio", 0.001)
	w.exp.Set("osctl_test_pods", 1, "pod", "a")
	w.exp.Set("osctl_test_pods", 1, "pod", "b")
	w.prom = testenv.StartPrometheus(t, testenv.PromOptions{Jobs: []testenv.PromJob{{Name: "app", Targets: []string{w.exp.Addr}}}})
	w.prom.WaitQuery(t, 30*time.Second, "osctl_test_error_ratio", func(v model.Vector) bool { return len(v) == 1 })
	target, _ := url.Parse(w.prom.URL())
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewUnstartedServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		user, pw, basic := r.BasicAuth()
		if r.Header.Get("Authorization") != "Bearer s3cret-token" && (!basic || user != "ops" || pw != "hunter2") {
			http.Error(rw, "unauthorized", http.StatusUnauthorized)
			return
		}
		proxy.ServeHTTP(rw, r)
	}))
	front.StartTLS()
	t.Cleanup(front.Close)
	w.front = front.URL
	dir := t.TempDir()
	w.ca = filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(w.ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: front.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	w.token = filepath.Join(dir, "token")
	if err := os.WriteFile(w.token, []byte("s3cret-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return w
}

func promGate(t *testing.T, p PromGates) *PromGate {
	t.Helper()
	gs, err := p.gates()
	if err != nil {
		t.Fatal(err)
	}
	return gs[0].(*PromGate)
}

func check(g Gate) GateResult {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return g.Check(ctx)
}

func probe(g Gate) error {
	return ProbeGates(context.Background(), []Gate{g}, 10*time.Second)
}

// TestPromGateAgainstPrometheus: the gate's verdicts, probes and errors against a real
// Prometheus, reached plainly, through TLS with --prometheus-ca, a bearer file and basic auth.
func TestPromGateAgainstPrometheus(t *testing.T) {
	t.Parallel()
	w := startPromWorld(t)
	cond := "osctl_test_error_ratio < bool 0.01"
	plain := PromGates{Queries: []string{cond}, URL: w.prom.URL()}

	g := promGate(t, plain)
	if err := probe(g); err != nil {
		t.Fatalf("probe of a good query: %v", err)
	}
	one := `{instance="` + w.exp.Addr + `", job="app"} 1`
	if r := check(g); r.Status != preflight.Pass || r.Value != one || r.Message != `"`+cond+`" returned `+one {
		t.Fatalf("good value: %+v", r)
	}
	w.exp.Set("osctl_test_error_ratio", 0.5)
	w.prom.WaitQuery(t, 30*time.Second, "osctl_test_error_ratio", func(v model.Vector) bool { return len(v) == 1 && v[0].Value == 0.5 })
	if r := check(g); r.Status != preflight.Fail || !strings.HasSuffix(r.Value, "} 0") || !strings.Contains(r.Message, "1 of 1 samples are 0") {
		t.Fatalf("bad value: %+v", r)
	}

	// No data fails by default and passes (as a warning) with --gate-prom-no-data pass.
	missing := PromGates{Queries: []string{"osctl_test_absent < bool 1"}, URL: w.prom.URL()}
	if r := check(promGate(t, missing)); r.Status != preflight.Fail || r.Value != "no data" {
		t.Fatalf("no data: %+v", r)
	}
	missing.NoData = NoDataPass
	if r := check(promGate(t, missing)); r.Status != preflight.Warn {
		t.Fatalf("no data, allowed: %+v", r)
	}

	// A query that does not parse is refused by the probe with Prometheus's message.
	bad := promGate(t, PromGates{Queries: []string{"sum(osctl_test_error_ratio"}, URL: w.prom.URL()})
	if err := probe(bad); err == nil || !strings.Contains(err.Error(), "gate prom-1") || !strings.Contains(err.Error(), "parse error") {
		t.Fatalf("probe of a bad query: %v", err)
	}
	// A query that parses but fails when it runs: the probe lets it through, the gate fails
	// with Prometheus's message.
	rt := promGate(t, PromGates{Queries: []string{"osctl_test_pods * on() osctl_test_pods"}, URL: w.prom.URL()})
	if err := probe(rt); err != nil {
		t.Fatalf("probe of a query that parses: %v", err)
	}
	if r := check(rt); r.Status != preflight.Fail || !strings.Contains(r.Message, "answered execution") || !strings.Contains(r.Message, "many-to-many") {
		t.Fatalf("runtime error: %+v", r)
	}

	// Nothing listening: the probe says so.
	port, err := redisproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	down := promGate(t, PromGates{Queries: []string{cond}, URL: "http://127.0.0.1:" + itoa(port)})
	if err := probe(down); err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("probe of a Prometheus that is down: %v", err)
	}
	if r := check(down); r.Status != preflight.Fail || !strings.Contains(r.Message, "connection refused") {
		t.Fatalf("check of a Prometheus that is down: %+v", r)
	}

	// Through the TLS front: its CA, then a bearer token from a file or a password in the URL.
	tlsNoAuth := PromGates{Queries: []string{"osctl_test_error_ratio > bool 0.1"}, URL: w.front, CAFile: w.ca}
	if err := probe(promGate(t, tlsNoAuth)); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("without credentials: %v", err)
	}
	noCA := PromGates{Queries: tlsNoAuth.Queries, URL: w.front, BearerFile: w.token}
	if err := probe(promGate(t, noCA)); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("without --prometheus-ca: %v", err)
	}
	bearer := PromGates{Queries: tlsNoAuth.Queries, URL: w.front, CAFile: w.ca, BearerFile: w.token}
	if r := check(promGate(t, bearer)); r.Status != preflight.Pass {
		t.Fatalf("bearer token: %+v", r)
	}
	basic := PromGates{Queries: tlsNoAuth.Queries, URL: strings.Replace(w.front, "https://", "https://ops:hunter2@", 1), CAFile: w.ca}
	bg := promGate(t, basic)
	if r := check(bg); r.Status != preflight.Pass || strings.Contains(r.Message, "hunter2") {
		t.Fatalf("basic auth: %+v", r)
	}
	wrong := promGate(t, PromGates{Queries: tlsNoAuth.Queries, URL: strings.Replace(w.front, "https://", "https://ops:wrong-pw@", 1), CAFile: w.ca})
	if err := probe(wrong); err == nil || strings.Contains(err.Error(), "wrong-pw") || !strings.Contains(err.Error(), "401") {
		t.Fatalf("a wrong password, or shown: %v", err)
	}
	if bg.Server != ServerOf(w.front) || strings.Contains(bg.Server, "ops") {
		t.Fatalf("server shown as %q", bg.Server)
	}
}

func itoa(n int) string { return model.SampleValue(n).String() }
