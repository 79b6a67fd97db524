package rollout

import (
	"strings"
	"testing"
)

// TestGateConfigMasking: a credential in --gate-cmd or --gate-http never reaches the journal;
// resume must be given the same flag again, and refuses another command.
func TestGateConfigMasking(t *testing.T) {
	g := GateConfig{Pods: true, HTTP: "https://ops:hunter2@web.example/health", Cmd: "osctl stress --redis redis://:s3cret@queue:6379 --token=abc123"}
	m := g.Masked()
	for _, s := range []string{m.HTTP, m.Cmd} {
		if strings.Contains(s, "hunter2") || strings.Contains(s, "s3cret") || strings.Contains(s, "abc123") {
			t.Fatalf("masked config keeps a credential: %q", s)
		}
	}
	if !m.HTTPMasked || !m.CmdMasked || !m.Pods {
		t.Fatalf("masked %+v", m)
	}
	if _, err := m.Given("", ""); err == nil || !strings.Contains(err.Error(), "pass the same --gate-http again") {
		t.Fatalf("resume without the masked flags: %v", err)
	}
	if _, err := m.Given(g.HTTP, "osctl stress --token=other"); err == nil || !strings.Contains(err.Error(), "is not the rollout's gate") {
		t.Fatalf("resume with another command: %v", err)
	}
	back, err := m.Given(g.HTTP, g.Cmd)
	if err != nil || back != g {
		t.Fatalf("resume with the same flags: %+v %v", back, err)
	}
	plain := GateConfig{Cmd: "curl -fsS http://web/health"}
	if pm := plain.Masked(); pm != plain {
		t.Fatalf("a command without credentials changed: %+v", pm)
	}
	if got, err := plain.Masked().Given("", ""); err != nil || got != plain {
		t.Fatalf("resume of a plain command: %+v %v", got, err)
	}
}
