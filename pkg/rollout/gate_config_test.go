package rollout

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestGateRecord: the journal keeps the gates' names and a digest, no setting's value; the
// digest changes with every setting and resume's check accepts only the same gates.
func TestGateRecord(t *testing.T) {
	g := GateConfig{Pods: true, NFS: true, NFSPath: "/mnt/openstudio", HTTP: "https://ops:hunter2@web.example/health", HTTPLatency: metav1.Duration{Duration: 2 * time.Second},
		Cmd:  "osctl stress --redis redis://:s3cret@queue:6379 --token=abc123",
		Prom: PromGates{Queries: []string{"up < bool 2"}, URL: "https://prom.example:9090", BearerFile: "/run/secrets/prom-token", CAFile: "/etc/ca.pem"}}
	rec := g.Record()
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"hunter2", "web.example", "s3cret", "stress", "prom.example", "prom-token", "ca.pem", "up < bool", "/mnt"} {
		if strings.Contains(string(b), s) {
			t.Fatalf("the record keeps %q: %s", s, b)
		}
	}
	if !reflect.DeepEqual(rec.Names, []string{"nfs", "pods", "http", "cmd", "prom-1"}) || !strings.HasPrefix(rec.Digest, "sha256:") || len(rec.Digest) != len("sha256:")+64 {
		t.Fatalf("record %s", b)
	}
	if err := rec.Check(g, false); err != nil {
		t.Fatalf("the same gates: %v", err)
	}
	// Every setting counts.
	for name, change := range map[string]func(*GateConfig){
		"cmd":        func(c *GateConfig) { c.Cmd += " " },
		"http":       func(c *GateConfig) { c.HTTP = "https://ops:other@web.example/health" },
		"latency":    func(c *GateConfig) { c.HTTPLatency.Duration = time.Second },
		"nfs path":   func(c *GateConfig) { c.NFSPath = "/mnt/other" },
		"locks":      func(c *GateConfig) { c.Locks = true },
		"query":      func(c *GateConfig) { c.Prom.Queries = []string{"up < bool 3"} },
		"prom url":   func(c *GateConfig) { c.Prom.URL = "https://evil.example:9090" },
		"bearer":     func(c *GateConfig) { c.Prom.BearerFile = "/etc/shadow" },
		"ca":         func(c *GateConfig) { c.Prom.CAFile = "" },
		"no data":    func(c *GateConfig) { c.Prom.NoData = NoDataPass },
		"no command": func(c *GateConfig) { c.Cmd = "" },
	} {
		c := g
		c.Prom.Queries = append([]string(nil), g.Prom.Queries...)
		change(&c)
		var de *GatesDifferError
		if err := rec.Check(c, true); !errors.As(err, &de) {
			t.Errorf("%s changed: %v, want a GatesDifferError", name, err)
		}
	}
	var de *GatesDifferError
	if err := rec.Check(GateConfig{NFS: true, Locks: true, Pods: true}, false); !errors.As(err, &de) ||
		!strings.Contains(err.Error(), "it started with [nfs, pods, http, cmd, prom-1]; the settings given make [nfs, locks, pods]") {
		t.Fatalf("other gates: %v", err)
	}
	if err := rec.Check(func() GateConfig { c := g; c.Cmd = "true"; return c }(), false); err == nil || !strings.Contains(err.Error(), "the same gates [nfs, pods, http, cmd, prom-1], with other settings") {
		t.Fatalf("other command: %v", err)
	}
	// Settings without effect do not count.
	a, b2 := GateConfig{Pods: true, NFSPath: "/a", HTTPLatency: metav1.Duration{Duration: time.Second}}, GateConfig{Pods: true, Prom: PromGates{NoData: NoDataFail}}
	if a.Digest() != b2.Digest() {
		t.Fatal("settings without effect change the digest")
	}
	// A journal of today: decoded, it is a record and writes back as one.
	var back GateRecord
	if err := json.Unmarshal(b, &back); err != nil || back.Legacy() || !reflect.DeepEqual(back, rec) {
		t.Fatalf("decoded %+v %v", back, err)
	}
}

// TestLegacyGateRecord: the gates an older osctl stored in the journal are compared with the
// ones given, never returned to be run; a masked one needs the operator's confirmation; written
// back, the journal keeps only names and the digest of the gates given.
func TestLegacyGateRecord(t *testing.T) {
	old := `{"pods":true,"nfsPath":"/mnt/openstudio","cmd":"touch /tmp/pwned","prom":{"queries":["up == bool 1"],"url":"http://127.0.0.1:9/","bearerFile":"/etc/hostname"}}`
	var rec GateRecord
	if err := json.Unmarshal([]byte(old), &rec); err != nil {
		t.Fatal(err)
	}
	if !rec.Legacy() || !reflect.DeepEqual(rec.Names, []string{"pods", "cmd", "prom-1"}) {
		t.Fatalf("legacy record %+v", rec)
	}
	same := GateConfig{Pods: true, NFSPath: "/mnt/openstudio", Cmd: "touch /tmp/pwned", Prom: PromGates{Queries: []string{"up == bool 1"}, URL: "http://127.0.0.1:9/", BearerFile: "/etc/hostname"}}
	if err := rec.Check(same, false); err != nil {
		t.Fatalf("the same gates: %v", err)
	}
	var de *GatesDifferError
	if err := rec.Check(GateConfig{Pods: true}, true); !errors.As(err, &de) {
		t.Fatalf("fewer gates: %v", err)
	}
	other := same
	other.Cmd = "true"
	if err := rec.Check(other, true); !errors.As(err, &de) {
		t.Fatalf("another command: %v", err)
	}
	b, _ := json.Marshal(rec)
	if strings.Contains(string(b), "pwned") || strings.Contains(string(b), "127.0.0.1") || strings.Contains(string(b), "hostname") {
		t.Fatalf("a legacy record writes its settings back: %s", b)
	}

	masked := `{"pods":true,"cmd":"check --token=xxxxx","cmdMasked":true,"http":"https://ops:xxxxx@web/h","httpMasked":true,"httpLatency":"2s"}`
	if err := json.Unmarshal([]byte(masked), &rec); err != nil {
		t.Fatal(err)
	}
	given := GateConfig{Pods: true, Cmd: "check --token=s3cret", HTTP: "https://ops:pw@web/h", HTTPLatency: metav1.Duration{Duration: 2 * time.Second}}
	var ue *UncheckedGatesError
	if err := rec.Check(given, false); !errors.As(err, &ue) || !reflect.DeepEqual(ue.Masked, []string{"http", "cmd"}) {
		t.Fatalf("masked gates without confirmation: %v", err)
	}
	if err := rec.Check(given, true); err != nil {
		t.Fatalf("masked gates, confirmed: %v", err)
	}
	noCmd := given
	noCmd.Cmd = ""
	if err := rec.Check(noCmd, true); !errors.As(err, &de) {
		t.Fatalf("a masked gate not given, confirmed: %v", err)
	}
	otherLatency := given
	otherLatency.HTTPLatency.Duration = time.Second
	if err := rec.Check(otherLatency, true); !errors.As(err, &de) {
		t.Fatalf("another latency, confirmed: %v", err)
	}
}

func TestGateNames(t *testing.T) {
	plain := GateConfig{Cmd: "curl -fsS http://web/health", Prom: PromGates{Queries: []string{"up == bool 1"}, URL: "http://prom:9090", BearerFile: "/var/run/token"}}
	if n := plain.Names(); !reflect.DeepEqual(n, []string{"cmd", "prom-1"}) {
		t.Fatalf("names %v", n)
	}
}
