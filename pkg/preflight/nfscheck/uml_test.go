package nfscheck_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/nfscheck"
)

type cliReport struct {
	Results []preflight.Result `json:"results"`
}

func readReport(t *testing.T, dir, name string) ([]preflight.Result, int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var r cliReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v: %s", name, err, b)
	}
	rc, err := os.ReadFile(filepath.Join(dir, name+".rc"))
	if err != nil {
		t.Fatal(err)
	}
	var code int
	fmt.Sscan(string(rc), &code)
	return r.Results, code
}

// TestUMLRealNFS boots User-Mode Linux once with a kernel NFS server and two NFSv3 client
// mounts of one export ($UML_A actimeo=60 from 127.0.0.1, $UML_B noac from 127.0.0.2), runs the
// real osctl binary inside it, and checks the verdicts on real mounts.
func TestUMLRealNFS(t *testing.T) {
	t.Parallel() // overlaps with the control-plane tests
	testenv.SkipIfShort(t, "the UML NFS harness")
	bin := testenv.OsctlBinary(t)
	program := fmt.Sprintf(`#!/bin/sh
O=%[1]q
run() { name=$1; shift; "$O" "$@" >"$UML_OUT/$name.json" 2>"$UML_OUT/$name.err"; echo $? >"$UML_OUT/$name.rc"; }
mkdir -p "$UML_A/shared"
run noac preflight nfs --path "$UML_B/shared" -o json
run caching preflight nfs --path "$UML_A/shared" -o json --junit "$UML_OUT/caching.xml"
run probe preflight nfs --probe "$UML_A" "$UML_B" --probe-timeout 2s -o json
run same preflight nfs --probe "$UML_B" "$UML_B/shared" -o json
`, bin)
	run := testenv.RunUMLNFS(t, program, 150*time.Second)
	if run.ExitCode != 0 {
		t.Fatalf("program exit %d: %s %s", run.ExitCode, run.Stdout, run.Stderr)
	}

	t.Run("real mountinfo parses and grades in-process", func(t *testing.T) {
		ms, err := nfscheck.ParseMountinfo(strings.NewReader(run.Mountinfo), "uml mountinfo")
		if err != nil {
			t.Fatal(err)
		}
		var a, b int
		for _, m := range ms {
			if m.IsNFS() {
				switch {
				case strings.HasSuffix(m.MountPoint, "/nfs/A"):
					a++
				case strings.HasSuffix(m.MountPoint, "/nfs/B"):
					b++
				}
			}
		}
		if a != 1 || b != 1 {
			t.Fatalf("want one NFS mount at A and one at B, got %d and %d:\n%s", a, b, run.Mountinfo)
		}
	})

	t.Run("noac mount passes", func(t *testing.T) {
		rs, code := readReport(t, run.OutDir, "noac")
		if code != 0 {
			t.Fatalf("exit %d, want 0:\n%s", code, dump(rs))
		}
		must(t, rs, nfscheck.RuleNoac, "", preflight.Pass)
		must(t, rs, nfscheck.RuleLocking, "", preflight.Pass)
	})

	t.Run("actimeo=60 mount fails with the effective seconds", func(t *testing.T) {
		rs, code := readReport(t, run.OutDir, "caching")
		if code != 1 {
			t.Fatalf("exit %d, want 1:\n%s", code, dump(rs))
		}
		r := must(t, rs, nfscheck.RuleNoac, "", preflight.Fail)
		if !strings.Contains(r.Message, "60 s") || !strings.Contains(r.Message, "acregmax=60") {
			t.Errorf("message should report 60 s and the filled-in defaults: %s", r.Message)
		}
		x, err := os.ReadFile(filepath.Join(run.OutDir, "caching.xml"))
		if err != nil || !strings.Contains(string(x), "<failure") {
			t.Errorf("junit file should hold a failure: %v %s", err, x)
		}
	})

	t.Run("probe: noac reader fresh, caching reader stale", func(t *testing.T) {
		rs, code := readReport(t, run.OutDir, "probe")
		if code != 1 {
			t.Fatalf("exit %d, want 1 (a stale reader):\n%s", code, dump(rs))
		}
		must(t, rs, nfscheck.RuleProbeClients, "", preflight.Pass)
		var noacReader, cachingReader string
		for _, r := range rs {
			if strings.HasPrefix(r.Subject, "reader ") {
				if strings.Contains(strings.SplitN(r.Subject, " (", 2)[0], "/nfs/B") {
					noacReader = r.Subject
				} else {
					cachingReader = r.Subject
				}
			}
		}
		for _, id := range []string{nfscheck.RuleProbeSize, nfscheck.RuleProbeNewFile, nfscheck.RuleProbeMtime, nfscheck.RuleProbeFlock} {
			must(t, rs, id, noacReader, preflight.Pass)
		}
		for _, id := range []string{nfscheck.RuleProbeSize, nfscheck.RuleProbeNewFile, nfscheck.RuleProbeMtime} {
			r := must(t, rs, id, cachingReader, preflight.Fail)
			if !strings.HasPrefix(r.Message, "STALE") {
				t.Errorf("%s: want STALE, got %s", id, r.Message)
			}
		}
		// Locks reach the server (NLM) whatever the attribute cache.
		must(t, rs, nfscheck.RuleProbeFlock, cachingReader, preflight.Pass)
	})

	t.Run("one client instance proves nothing", func(t *testing.T) {
		rs, code := readReport(t, run.OutDir, "same")
		if code != 0 {
			t.Fatalf("exit %d, want 0 (a warning):\n%s", code, dump(rs))
		}
		must(t, rs, nfscheck.RuleProbeClients, "", preflight.Warn)
		if len(rs) != 1 {
			t.Fatalf("no probe result may pass on one device:\n%s", dump(rs))
		}
	})
}
