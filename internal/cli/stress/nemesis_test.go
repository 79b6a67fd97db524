package stress

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/stress/nemesis"
	"github.com/osctl/osctl/pkg/stress/report"
)

// TestNemesisOnALockedSandboxStaysClean: replicas killed and paused during the load of a locked
// sandbox (which starts a killed replica again) leave a clean, conclusive verdict: what the kill
// cut off is ambiguous, never a race. Every fault is in the report, the one due after the load
// is not injected, and judging the history again gives the same faults.
func TestNemesisOnALockedSandboxStaysClean(t *testing.T) {
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "redlock")
	hist := filepath.Join(t.TempDir(), "history.jsonl")
	res := stress(t, sb, "--requests", "2000", "--concurrency", "200", "--analyses", "10", "--history", hist,
		"--nemesis", "pause-replica@1500ms+1s,kill-replica@1s,kill-replica@1h", "--nemesis-seed", "7")
	if res.Code != 0 || res.rep.Verdict != "clean" || !res.rep.Conclusive {
		t.Fatalf("exit %d, verdict %s %v, findings %v\n%s", res.Code, res.rep.Verdict, res.rep.Reasons, res.rep.FindingCounts, res.Stderr)
	}
	f := res.rep.Faults
	if len(f) != 3 || f[0].Kind != nemesis.KillReplica || f[1].Kind != nemesis.PauseReplica {
		t.Fatalf("faults in the report: %+v", f)
	}
	for i, want := range []string{nemesis.Done, nemesis.Done, nemesis.NotInjected} {
		if f[i].Outcome != want {
			t.Errorf("fault %v: outcome %q, want %q", f[i], f[i].Outcome, want)
		}
	}
	if !strings.HasPrefix(f[0].Target, "replica ") || f[1].Ended.Sub(f[1].Injected) < 1e9 {
		t.Errorf("faults: %+v", f[:2])
	}
	if !strings.Contains(res.Stderr, "--nemesis-seed 7") || !strings.Contains(res.Stderr, "nemesis: kill-replica@1s on replica ") {
		t.Errorf("the run did not say its faults and seed:\n%s", res.Stderr)
	}
	if !strings.Contains(sb.Stderr(), "started it again on ") {
		t.Errorf("the sandbox did not start the killed replica again:\n%s", sb.Stderr())
	}
	again := judgeHistory(t, hist, sb.StateDir)
	if len(again.Faults) != 3 || again.Faults[0].Target != f[0].Target {
		t.Errorf("judge of the history gives faults %+v", again.Faults)
	}
}

// TestNemesisRefusesBeforeAnyLoad: a malformed schedule, a target it cannot fault and a fault the
// sandbox cannot take are usage errors (exit 2, one line) before anything is sent or written.
func TestNemesisRefusesBeforeAnyLoad(t *testing.T) {
	sb := sandboxenv.Start(t, "--replicas", "1", "--restart=false")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--nemesis", "kill-replica@soon"}, `AT "soon" is not a duration`},
		{[]string{"--nemesis", "pause-redis@1s"}, "needs +FOR"},
		{[]string{"--nemesis", "kill-replica@1s"}, "does not restart its processes"},
	} {
		hist := filepath.Join(t.TempDir(), "history.jsonl")
		res := stressRaw(t, sb, append(c.args, "--history", hist)...)
		if res.Code != 2 || !strings.Contains(res.Stderr, c.want) || strings.Count(strings.TrimSpace(res.Stderr), "\n") > 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, res.Code, res.Stderr, c.want)
		}
		if _, err := os.Stat(hist); err == nil {
			t.Errorf("%v: the history was written", c.args)
		}
	}
	if st, err := sb.Exited(); st {
		t.Errorf("the sandbox ended: %v", err)
	}
}

// stressRaw runs osctl stress against the sandbox, whatever its exit code and output.
func stressRaw(t *testing.T, sb *sandboxenv.Sandbox, args ...string) testenv.OsctlRun {
	t.Helper()
	return testenv.RunOsctl(t, time.Minute, append([]string{"stress", "--target", strings.Join(sb.Replicas, ","), "--state-dir", sb.StateDir}, args...)...)
}

// judgeHistory is `osctl stress judge` of a saved run, as JSON.
func judgeHistory(t *testing.T, hist, dir string) report.Report {
	t.Helper()
	var rep report.Report
	testenv.RunOsctl(t, time.Minute, "stress", "judge", "--history", hist, "--state-dir", dir, "-o", "json").Decode(t, &rep)
	return rep
}
