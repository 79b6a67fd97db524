package testenv

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/model"

	"github.com/osctl/osctl/pkg/redisproc"
)

// PromInstallHint says how to get the prometheus and promtool binaries.
const PromInstallHint = "apt-get install prometheus (Debian's package ships promtool too)"

// PromJob is one scrape job of a test Prometheus.
type PromJob struct {
	Name     string
	Targets  []string      // host:port
	Interval time.Duration // default 1s
	Timeout  time.Duration // default the interval
}

// PromOptions shape a test Prometheus.
type PromOptions struct {
	Jobs      []PromJob
	RuleFiles []string // alerting and recording rules, evaluated every second
}

// Prometheus is one prometheus process owned by a test, on a free loopback port.
type Prometheus struct {
	Addr string // 127.0.0.1:port
	API  v1.API // a client of its HTTP API
	cmd  *exec.Cmd
	log  string
}

// PromtoolPath returns promtool, or fails the test in CI and skips it elsewhere.
func PromtoolPath(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("promtool")
	Require(t, err == nil, "promtool ("+PromInstallHint+")")
	return p
}

// StartPrometheus starts Debian's prometheus with the jobs and rules of o; it is killed when the
// test ends. It returns once Prometheus answers /-/ready.
func StartPrometheus(t testing.TB, o PromOptions) *Prometheus {
	t.Helper()
	SkipIfShort(t, "Prometheus")
	bin, err := exec.LookPath("prometheus")
	Require(t, err == nil, "prometheus ("+PromInstallHint+")")
	dir := t.TempDir()
	var cfg strings.Builder
	cfg.WriteString("global: {scrape_interval: 1s, evaluation_interval: 1s}\n")
	if len(o.RuleFiles) > 0 {
		cfg.WriteString("rule_files:\n")
		for _, f := range o.RuleFiles {
			fmt.Fprintf(&cfg, "  - %q\n", f)
		}
	}
	cfg.WriteString("scrape_configs:\n")
	for _, j := range o.Jobs {
		iv := j.Interval
		if iv <= 0 {
			iv = time.Second
		}
		to := j.Timeout
		if to <= 0 || to > iv {
			to = iv
		}
		fmt.Fprintf(&cfg, "  - job_name: %q\n    scrape_interval: %s\n    scrape_timeout: %s\n    static_configs:\n      - targets: [%s]\n",
			j.Name, model.Duration(iv), model.Duration(to), quoteAll(j.Targets))
	}
	cfgPath := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfgPath, []byte(cfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ { // a free port may be taken before Prometheus binds it
		port, err := redisproc.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		p := &Prometheus{Addr: fmt.Sprintf("127.0.0.1:%d", port), log: filepath.Join(dir, fmt.Sprintf("prometheus-%d.log", attempt))}
		args := []string{"--config.file=" + cfgPath, "--storage.tsdb.path=" + filepath.Join(dir, fmt.Sprintf("data-%d", attempt)),
			"--web.listen-address=" + p.Addr, "--web.enable-lifecycle", "--log.level=warn"}
		lf, err := os.Create(p.log)
		if err != nil {
			t.Fatal(err)
		}
		p.cmd = exec.Command(bin, args...)
		p.cmd.Stdout, p.cmd.Stderr = lf, lf
		if err := p.cmd.Start(); err != nil {
			lf.Close()
			t.Fatalf("start prometheus: %v", err)
		}
		lf.Close()
		exited := make(chan struct{})
		go func() { _ = p.cmd.Wait(); close(exited) }()
		t.Cleanup(func() {
			_ = p.cmd.Process.Kill() // by its pid: only the process this test started
			<-exited
		})
		if lastErr = p.waitReady(exited); lastErr == nil {
			c, err := api.NewClient(api.Config{Address: p.URL()})
			if err != nil {
				t.Fatal(err)
			}
			p.API = v1.NewAPI(c)
			return p
		}
	}
	t.Fatalf("prometheus did not start: %v", lastErr)
	return nil
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// URL is the base URL of the Prometheus HTTP API.
func (p *Prometheus) URL() string { return "http://" + p.Addr }

func (p *Prometheus) waitReady(exited <-chan struct{}) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("prometheus exited: %s", tail(p.log))
		default:
		}
		resp, err := client.Get(p.URL() + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = p.cmd.Process.Kill()
	return fmt.Errorf("prometheus on %s not ready within 30s: %s", p.Addr, tail(p.log))
}

// Query runs an instant query and returns its vector (fatal on an error or another type).
func (p *Prometheus) Query(t testing.TB, q string) model.Vector {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, _, _, err := p.API.Query(ctx, q, time.Time{})
	if err != nil {
		t.Fatalf("query %q: %v", q, err)
	}
	vec, ok := v.(model.Vector)
	if !ok {
		t.Fatalf("query %q returned a %s, not a vector", q, v.Type())
	}
	return vec
}

// WaitQuery waits until the query's vector satisfies cond, and returns it.
func (p *Prometheus) WaitQuery(t testing.TB, timeout time.Duration, q string, cond func(model.Vector) bool) model.Vector {
	t.Helper()
	var last model.Vector
	WaitFor(t, timeout, fmt.Sprintf("Prometheus query %q (last: %v)", q, &last), func() (bool, error) {
		last = p.Query(t, q)
		return cond(last), nil
	})
	return last
}

// Exporter is a real HTTP server on loopback serving the gauges a test sets, for a test
// Prometheus to scrape.
type Exporter struct {
	Addr     string // 127.0.0.1:port
	reg      *prometheus.Registry
	mu       sync.Mutex
	vecs     map[string]*prometheus.GaugeVec
	onScrape func()
}

// StartExporter starts an exporter; it stops when the test ends.
func StartExporter(t testing.TB) *Exporter {
	t.Helper()
	e := &Exporter{reg: prometheus.NewRegistry(), vecs: map[string]*prometheus.GaugeVec{}}
	h := promhttp.HandlerFor(e.reg, promhttp.HandlerOpts{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		fn := e.onScrape
		e.mu.Unlock()
		if fn != nil {
			fn()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	e.Addr = strings.TrimPrefix(srv.URL, "http://")
	return e
}

// OnScrape calls fn before each scrape is answered, so that a gauge can follow what the test
// watches (the replicas of a Deployment) at the moment Prometheus reads it.
func (e *Exporter) OnScrape(fn func()) {
	e.mu.Lock()
	e.onScrape = fn
	e.mu.Unlock()
}

// Set sets the gauge name{labels} (labels as name, value pairs; the first Set of a name fixes
// its label names).
func (e *Exporter) Set(name string, v float64, labels ...string) {
	e.vec(name, labels).WithLabelValues(values(labels)...).Set(v)
}

func (e *Exporter) vec(name string, labels []string) *prometheus.GaugeVec {
	e.mu.Lock()
	defer e.mu.Unlock()
	if g, ok := e.vecs[name]; ok {
		return g
	}
	var names []string
	for i := 0; i+1 < len(labels); i += 2 {
		names = append(names, labels[i])
	}
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: "set by the test"}, names)
	e.reg.MustRegister(g)
	e.vecs[name] = g
	return g
}

func values(labels []string) []string {
	var out []string
	for i := 1; i < len(labels); i += 2 {
		out = append(out, labels[i])
	}
	return out
}
