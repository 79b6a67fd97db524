package stress

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/internal/testenv/stressrun"
	"github.com/osctl/osctl/pkg/stress/cleanup"
)

// The seed's 10,000-request acceptance tests, which were here, are internal/acceptance's. Runs
// whose binary is not what they check (the locking modes, the fidelity twins, judge against the
// run, the split job queue) are pkg/stress's tests, on replicas served in its test process.

// TestCleanupRemovesOnlyTheRun runs a small stress, then cleans it up: the run's directories go,
// another run's and a stranger's files stay. The sandbox's worker looks for jobs every 100 ms,
// not the real server's 5 s: the runs' held-back parts and settle wait for it less.
func TestCleanupRemovesOnlyTheRun(t *testing.T) {
	t.Parallel() // two small runs and cleanups on a sandbox of its own: it overlaps the other parallel tests
	sb := sandboxenv.Start(t, "--replicas", "1", "--locking", "local", "--background-interval", "100ms")
	first := stressrun.Run(t, sb, "--requests", "200", "--concurrency", "20", "--analyses", "4")
	second := stressrun.Run(t, sb, "--requests", "200", "--concurrency", "20", "--analyses", "4")
	stranger := filepath.Join(sb.StateDir, "server", "analyses", "not-osctl", "keep.txt")
	if err := os.MkdirAll(filepath.Dir(stranger), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stranger, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, int) {
		r := runOsctl(t, append([]string{"stress", "cleanup", "--run", first.Rep.Run, "--state-dir", sb.StateDir}, args...)...)
		return r.Output, r.Code
	}
	before, _, _ := cleanup.RunDirs(sb.StateDir, first.Rep.Run)
	if len(before) < 8 { // 4 analyses x (assets, extraction) + result dirs
		t.Fatalf("run %s has %d directories", first.Rep.Run, len(before))
	}
	if out, code := run("--dry-run"); code != 0 || !strings.Contains(out, "would remove") {
		t.Fatalf("dry run: %d %s", code, out)
	}
	if after, _, _ := cleanup.RunDirs(sb.StateDir, first.Rep.Run); len(after) != len(before) {
		t.Fatal("the dry run removed something")
	}
	if out, code := run(); code != 2 || !strings.Contains(out, "--yes") {
		t.Fatalf("without a terminal or --yes cleanup must refuse: %d %s", code, out)
	}
	if out, code := run("--yes"); code != 0 || !strings.Contains(out, "removed") {
		t.Fatalf("cleanup: %d %s", code, out)
	}
	if after, _, _ := cleanup.RunDirs(sb.StateDir, first.Rep.Run); len(after) != 0 {
		t.Fatalf("left %v", after)
	}
	if others, _, _ := cleanup.RunDirs(sb.StateDir, second.Rep.Run); len(others) < 8 {
		t.Fatalf("the other run lost directories: %d left", len(others))
	}
	if _, err := os.Stat(stranger); err != nil {
		t.Fatalf("a stranger's file was touched: %v", err)
	}
}
