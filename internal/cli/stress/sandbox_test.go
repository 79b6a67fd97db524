package stress

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/stress/cleanup"
	"github.com/osctl/osctl/pkg/stress/report"
)

// These tests run the real osctl binary (no -race: 10,000 requests in flight) against real
// sandbox processes, and judge the verdict by the exit code and the JSON report.

type runResult struct {
	code   int
	rep    report.Report
	stderr string
}

func stress(t *testing.T, sb *sandboxenv.Sandbox, args ...string) runResult {
	t.Helper()
	bin := testenv.OsctlBinary(t)
	full := append([]string{"stress", "--target", strings.Join(sb.Replicas, ","), "-o", "json"}, args...)
	if sb.StateDir != "" && !contains(args, "jobs") && !contains(args, "http") {
		full = append(full, "--state-dir", sb.StateDir)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, full...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	res := runResult{stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	default:
		t.Fatalf("running osctl stress: %v\n%s", err, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), &res.rep); err != nil {
		t.Fatalf("osctl %s exited %d without a JSON report: %v\nstdout: %.2000s\nstderr: %s", strings.Join(full, " "), res.code, err, out.String(), errb.String())
	}
	return res
}

func contains(args []string, s string) bool {
	for _, a := range args {
		if a == s {
			return true
		}
	}
	return false
}

func requireRaces(t *testing.T, r runResult, kinds ...string) {
	t.Helper()
	if r.code != 1 || r.rep.Verdict != "races" || len(r.rep.Findings) == 0 {
		t.Fatalf("want races (exit 1), got exit %d verdict %s findings %v reasons %v\n%s", r.code, r.rep.Verdict, r.rep.FindingCounts, r.rep.Reasons, r.stderr)
	}
	for _, k := range kinds {
		if r.rep.FindingCounts[k] == 0 {
			t.Errorf("want %s findings, got %v", k, r.rep.FindingCounts)
		}
	}
	for _, f := range r.rep.Findings {
		if f.Kind == "" || f.Object == "" || f.Expected == "" || f.Got == "" {
			t.Fatalf("finding without evidence: %+v", f)
		}
	}
}

func requireClean(t *testing.T, r runResult) {
	t.Helper()
	if r.code != 0 || r.rep.Verdict != "clean" || !r.rep.Conclusive || r.rep.Partial {
		var first string
		if len(r.rep.Findings) > 0 {
			b, _ := json.Marshal(r.rep.Findings[0])
			first = string(b)
		}
		t.Fatalf("want clean and conclusive (exit 0), got exit %d verdict %s findings %v reasons %v first %s\n%s", r.code, r.rep.Verdict, r.rep.FindingCounts, r.rep.Reasons, first, r.stderr)
	}
}

func TestSandboxLockingNoneRaces(t *testing.T) {
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "none")
	r := stress(t, sb, "--requests", "2000", "--concurrency", "500", "--analyses", "20")
	requireRaces(t, r)
}

func TestSandboxLockingLocal(t *testing.T) {
	t.Run("1 replica clean", func(t *testing.T) {
		sb := sandboxenv.Start(t, "--replicas", "1", "--locking", "local")
		requireClean(t, stress(t, sb, "--requests", "2000", "--concurrency", "500", "--analyses", "20"))
	})
	t.Run("3 replicas races", func(t *testing.T) {
		sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "local")
		requireRaces(t, stress(t, sb, "--requests", "2000", "--concurrency", "500", "--analyses", "20"))
	})
}

// TestSandboxNone10k: the same 10,000 concurrent POSTs without locking find races at 3 and 5
// replicas.
func TestSandboxNone10k(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 requests in flight: not in -short")
	}
	for _, replicas := range []string{"3", "5"} {
		t.Run(replicas+" replicas", func(t *testing.T) {
			sb := sandboxenv.Start(t, "--replicas", replicas, "--locking", "none")
			// A failed extraction stays queued for good: a shorter settle keeps the test short.
			requireRaces(t, stress(t, sb, "--requests", "10000", "--concurrency", "10000", "--analyses", "100", "--settle-timeout", "20s"))
		})
	}
}

// TestSandboxRedlock10k is the seed's acceptance test: 10,000 concurrent POSTs with distributed
// locking, no race, and a verdict earned. The offline judge gives the same verdict.
func TestSandboxRedlock10k(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 requests in flight: not in -short")
	}
	for _, replicas := range []string{"3", "5"} {
		t.Run(replicas+" replicas", func(t *testing.T) {
			sb := sandboxenv.Start(t, "--replicas", replicas, "--locking", "redlock")
			hist := filepath.Join(t.TempDir(), "history.jsonl")
			r := stress(t, sb, "--requests", "10000", "--concurrency", "10000", "--analyses", "100", "--history", hist)
			requireClean(t, r)
			if r.rep.PeakInFlight < 5000 {
				t.Errorf("peak in flight %d: 10,000 were not really in flight", r.rep.PeakInFlight)
			}
			if r.rep.Contention == nil || r.rep.Contention.Contended < 50 {
				t.Errorf("contention %+v", r.rep.Contention)
			}
			if replicas == "3" {
				judgeEqualsOnline(t, sb, hist, r)
			}
		})
	}
}

func judgeEqualsOnline(t *testing.T, sb *sandboxenv.Sandbox, hist string, online runResult) {
	t.Helper()
	bin := testenv.OsctlBinary(t)
	cmd := exec.Command(bin, "stress", "judge", "--history", hist, "--state-dir", sb.StateDir, "-o", "json")
	out, err := cmd.Output()
	code := testenv.ExitCode(t, err)
	var off report.Report
	if err := json.Unmarshal(out, &off); err != nil {
		t.Fatalf("judge printed no JSON: %v: %s", err, out)
	}
	if code != online.code || off.Verdict != online.rep.Verdict || off.Conclusive != online.rep.Conclusive ||
		len(off.Findings) != len(online.rep.Findings) || off.AckFraction != online.rep.AckFraction || off.Counts.Total != online.rep.Counts.Total {
		t.Fatalf("offline judge differs: exit %d %s %v %d findings ack %v, online exit %d %s %v %d findings ack %v",
			code, off.Verdict, off.Conclusive, len(off.Findings), off.AckFraction, online.code, online.rep.Verdict, online.rep.Conclusive, len(online.rep.Findings), online.rep.AckFraction)
	}
	if *off.Contention != *online.rep.Contention {
		t.Fatalf("contention differs: %+v vs %+v", off.Contention, online.rep.Contention)
	}
}

// TestCleanupRemovesOnlyTheRun runs a small stress, then cleans it up: the run's directories go,
// another run's and a stranger's files stay.
func TestCleanupRemovesOnlyTheRun(t *testing.T) {
	sb := sandboxenv.Start(t, "--replicas", "1", "--locking", "local")
	first := stress(t, sb, "--requests", "200", "--concurrency", "20", "--analyses", "4")
	second := stress(t, sb, "--requests", "200", "--concurrency", "20", "--analyses", "4")
	stranger := filepath.Join(sb.StateDir, "server", "analyses", "not-osctl", "keep.txt")
	if err := os.MkdirAll(filepath.Dir(stranger), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stranger, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := testenv.OsctlBinary(t)
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, append([]string{"stress", "cleanup", "--run", first.rep.Run, "--state-dir", sb.StateDir}, args...)...)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		}
		return string(out), 0
	}
	before, _, _ := cleanup.RunDirs(sb.StateDir, first.rep.Run)
	if len(before) < 8 { // 4 analyses x (assets, extraction) + result dirs
		t.Fatalf("run %s has %d directories", first.rep.Run, len(before))
	}
	if out, code := run("--dry-run"); code != 0 || !strings.Contains(out, "would remove") {
		t.Fatalf("dry run: %d %s", code, out)
	}
	if after, _, _ := cleanup.RunDirs(sb.StateDir, first.rep.Run); len(after) != len(before) {
		t.Fatal("the dry run removed something")
	}
	if out, code := run(); code != 2 || !strings.Contains(out, "--yes") {
		t.Fatalf("without a terminal or --yes cleanup must refuse: %d %s", code, out)
	}
	if out, code := run("--yes"); code != 0 || !strings.Contains(out, "removed") {
		t.Fatalf("cleanup: %d %s", code, out)
	}
	if after, _, _ := cleanup.RunDirs(sb.StateDir, first.rep.Run); len(after) != 0 {
		t.Fatalf("left %v", after)
	}
	if others, _, _ := cleanup.RunDirs(sb.StateDir, second.rep.Run); len(others) < 8 {
		t.Fatalf("the other run lost directories: %d left", len(others))
	}
	if _, err := os.Stat(stranger); err != nil {
		t.Fatalf("a stranger's file was touched: %v", err)
	}
}
