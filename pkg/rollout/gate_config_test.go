package rollout

import (
	"reflect"
	"strings"
	"testing"
)

// TestGateConfigMasking: a credential in --gate-cmd, --gate-http or --prometheus never reaches
// the journal; resume must be given the same flag again, and refuses another one.
func TestGateConfigMasking(t *testing.T) {
	g := GateConfig{Pods: true, HTTP: "https://ops:hunter2@web.example/health", Cmd: "osctl stress --redis redis://:s3cret@queue:6379 --token=abc123",
		Prom: PromGates{Queries: []string{"up < bool 2"}, URL: "https://grafana:pr0mpw@prom.example:9090"}}
	m := g.Masked()
	for _, s := range []string{m.HTTP, m.Cmd, m.Prom.URL} {
		if strings.Contains(s, "hunter2") || strings.Contains(s, "s3cret") || strings.Contains(s, "abc123") || strings.Contains(s, "pr0mpw") {
			t.Fatalf("masked config keeps a credential: %q", s)
		}
	}
	if !m.HTTPMasked || !m.CmdMasked || !m.Prom.URLMasked || !m.Pods || m.Prom.URL != "https://grafana:xxxxx@prom.example:9090" {
		t.Fatalf("masked %+v", m)
	}
	if g.Prom.URLMasked || g.Prom.URL != "https://grafana:pr0mpw@prom.example:9090" {
		t.Fatalf("Masked changed its receiver: %+v", g.Prom)
	}
	if _, err := m.Given(Again{}); err == nil || !strings.Contains(err.Error(), "Again.HTTP: the rollout's gate held a credential") {
		t.Fatalf("resume without the masked flags: %v", err)
	}
	if _, err := m.Given(Again{HTTP: g.HTTP, Cmd: "osctl stress --token=other"}); err == nil || !strings.Contains(err.Error(), "is not the rollout's gate") {
		t.Fatalf("resume with another command: %v", err)
	}
	if _, err := m.Given(Again{HTTP: g.HTTP, Cmd: g.Cmd}); err == nil || !strings.Contains(err.Error(), "Again.Prometheus: the rollout's gate held a credential") {
		t.Fatalf("resume without the masked --prometheus: %v", err)
	}
	if _, err := m.Given(Again{HTTP: g.HTTP, Cmd: g.Cmd, Prometheus: "https://grafana:x@other.example:9090"}); err == nil || !strings.Contains(err.Error(), "is not the rollout's gate") {
		t.Fatalf("resume with another Prometheus: %v", err)
	}
	back, err := m.Given(Again{HTTP: g.HTTP, Cmd: g.Cmd, Prometheus: g.Prom.URL})
	if err != nil || !reflect.DeepEqual(back, g) {
		t.Fatalf("resume with the same flags: %+v %v", back, err)
	}
	plain := GateConfig{Cmd: "curl -fsS http://web/health", Prom: PromGates{Queries: []string{"up == bool 1"}, URL: "http://prom:9090", BearerFile: "/var/run/token"}}
	if pm := plain.Masked(); !reflect.DeepEqual(pm, plain) {
		t.Fatalf("a config without credentials changed: %+v", pm)
	}
	if got, err := plain.Masked().Given(Again{}); err != nil || !reflect.DeepEqual(got, plain) {
		t.Fatalf("resume of a plain config: %+v %v", got, err)
	}
	if _, err := (GateConfig{}).Given(Again{Prometheus: "http://prom:9090"}); err == nil || !strings.Contains(err.Error(), "has no PromQL gate") {
		t.Fatalf("--prometheus on resume of a rollout without PromQL gates: %v", err)
	}
	if n := plain.Names(); !reflect.DeepEqual(n, []string{"cmd", "prom-1"}) {
		t.Fatalf("names %v", n)
	}
}
