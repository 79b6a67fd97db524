package nfscheck_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/nfscheck"
)

func TestProbeOneDeviceProvesNothing(t *testing.T) {
	d := t.TempDir()
	a, b := filepath.Join(d, "a"), filepath.Join(d, "b")
	for _, p := range []string{a, b} {
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := nfscheck.Probe(context.Background(), a, b, nfscheck.ProbeOptions{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].ID != nfscheck.RuleProbeClients || rs[0].Status != preflight.Warn || !strings.Contains(rs[0].Message, "prove nothing") {
		t.Fatalf("want one WARN and no passing test: %v", rs)
	}
}

func TestProbeBadDirectories(t *testing.T) {
	d := t.TempDir()
	f := filepath.Join(d, "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := nfscheck.Probe(context.Background(), filepath.Join(d, "missing"), d, nfscheck.ProbeOptions{}); err == nil {
		t.Fatal("a missing directory must be an error")
	}
	if _, err := nfscheck.Probe(context.Background(), f, d, nfscheck.ProbeOptions{}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("a file is not a directory: %v", err)
	}
}

func TestProbeNotTheSameExport(t *testing.T) {
	// /dev/shm and a temp dir on the root file system are two devices but not one export.
	shm, err := os.MkdirTemp("/dev/shm", "osctl-probe-")
	if err != nil {
		t.Skip("no /dev/shm")
	}
	defer os.RemoveAll(shm)
	d := t.TempDir()
	if same(t, shm, d) {
		t.Skip("/dev/shm and the temp dir share a device here")
	}
	_, err = nfscheck.Probe(context.Background(), shm, d, nfscheck.ProbeOptions{Timeout: 300 * time.Millisecond, Poll: 50 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "not the same directory") {
		t.Fatalf("want a not-the-same-export error, got %v", err)
	}
}

func same(t *testing.T, a, b string) bool {
	t.Helper()
	fa, _ := os.Stat(a)
	fb, _ := os.Stat(b)
	return os.SameFile(fa, fb) || devOf(fa) == devOf(fb)
}
