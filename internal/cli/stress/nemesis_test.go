package stress

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/internal/testenv/stressrun"
	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/stress/report"
)

// TestNemesisOnALockedSandboxStaysClean: replicas killed and paused during the load of a locked
// sandbox (which starts a killed replica again) leave a clean, conclusive verdict: what the kill
// cut off is ambiguous, never a race. Every fault is in the report, the one due after the load
// is not injected, and judging the history again gives the same faults.
func TestNemesisOnALockedSandboxStaysClean(t *testing.T) {
	t.Parallel() // its load is light and mostly waits out its faults (seed 7 kills one replica and pauses another: neither waits for the other's): it overlaps the other parallel tests
	sb, hist, res := lockedLoadWithFaults(t, "pause-replica@1500ms+1s,kill-replica@1s,kill-replica@1h", "7")
	if res.Code != 0 || res.Rep.Verdict != "clean" || !res.Rep.Conclusive {
		t.Fatalf("exit %d, verdict %s %v, findings %v\n%s", res.Code, res.Rep.Verdict, res.Rep.Reasons, res.Rep.FindingCounts, res.Stderr)
	}
	f := res.Rep.Faults
	if len(f) != 3 || f[0].Kind != nemesis.KillReplica || f[1].Kind != nemesis.PauseReplica {
		t.Fatalf("faults in the report: %+v", f)
	}
	for i, want := range []string{nemesis.Done, nemesis.Done, nemesis.NotInjected} {
		if f[i].Outcome != want {
			t.Errorf("fault %v: outcome %q, want %q", f[i], f[i].Outcome, want)
		}
	}
	if !strings.HasPrefix(f[0].Target, "replica ") || f[1].Ended.Sub(f[1].Injected) < time.Second {
		t.Errorf("faults: %+v", f[:2])
	}
	// The kill cut requests off (their connections were lost after sending): ambiguous, and the
	// verdict above stayed clean.
	if res.Rep.Outcomes["ambiguous"] == 0 || res.Rep.NemesisSeed != 7 {
		t.Errorf("outcomes %v, seed %d: want requests cut off by the kill counted ambiguous, and seed 7", res.Rep.Outcomes, res.Rep.NemesisSeed)
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

// lockedLoadWithFaults sends 2,000 requests to a locked sandbox of 3 replicas with the faults of
// schedule (targets chosen with seed), on a fresh sandbox again while a kill lost a job
// (stressrun.AfterAKill): the sandbox and history of the run it returns.
func lockedLoadWithFaults(t *testing.T, schedule, seed string) (*sandboxenv.Sandbox, string, stressrun.Result) {
	t.Helper()
	var sb *sandboxenv.Sandbox
	var hist string
	res := stressrun.AfterAKill(t, func() stressrun.Result {
		sb = sandboxenv.Start(t, "--replicas", "3", "--locking", "redlock")
		hist = filepath.Join(t.TempDir(), "history.jsonl")
		return stressrun.Run(t, sb, "--requests", "2000", "--concurrency", "200", "--analyses", "10", "--history", hist,
			"--nemesis", schedule, "--nemesis-seed", seed)
	})
	return sb, hist, res
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

// TestNemesisDeletesAPodOnKubernetes: with --nemesis-namespace the faults go to the pods of a
// real API server (kwok runs them) while the load goes to a sandbox: kill-replica deletes one of
// the web pods, and a pause is refused before any load.
func TestNemesisDeletesAPodOnKubernetes(t *testing.T) {
	t.Parallel() // kwok pods in a namespace of its own, a light load: it overlaps the other parallel tests
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	k.Apply(t, ns, testenv.WebDeployment(2, `containers: [{name: web, image: "registry.invalid/openstudio-server:3.7.0"}]
`))
	pods := k.ReadyPods(t, ns, "app=web", 2)
	sb := sandboxenv.Start(t, "--replicas", "2", "--locking", "redlock")
	kube := []string{"--kubeconfig", k.Kubeconfig, "--nemesis-namespace", ns}
	if res := stressRaw(t, sb, append(kube, "--nemesis", "pause-replica@1s+1s")...); res.Code != 2 || !strings.Contains(res.Stderr, "cannot be paused") {
		t.Errorf("a pause on Kubernetes: exit %d, %s", res.Code, res.Stderr)
	}
	res := stressrun.Run(t, sb, append(kube, "--requests", "600", "--concurrency", "100", "--analyses", "4", "--nemesis", "kill-replica@300ms")...)
	if len(res.Rep.Faults) != 1 || res.Rep.Faults[0].Outcome != nemesis.Done {
		t.Fatalf("faults: %+v\n%s", res.Rep.Faults, res.Stderr)
	}
	victim := strings.TrimPrefix(res.Rep.Faults[0].Target, "pod "+ns+"/")
	if victim != pods[0] && victim != pods[1] {
		t.Fatalf("the fault hit %q, not one of %v", res.Rep.Faults[0].Target, pods)
	}
	testenv.Eventually(t, 30*time.Second, "the deleted pod gone", func() bool {
		_, err := k.Clients.Clientset.CoreV1().Pods(ns).Get(context.Background(), victim, metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
}
