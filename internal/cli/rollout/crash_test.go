package rollout_test

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/rollouttest"
	"github.com/osctl/osctl/pkg/rollout"
)

// runArgs are the arguments of a rollout 1 -> 2 -> 3 with a hold long enough to kill osctl in.
func runArgs(t *testing.T, w *rollouttest.Workload, redisURL string, hold string, extra ...string) []string {
	report := rollouttest.StressReport(t, w.NS, "clean", true, rollouttest.Image, 3, time.Now().Add(-time.Hour))
	return append([]string{"--redis", redisURL, "rollout", "run", "--hpa", "web", "--steps", "2,3", "--final-min", "2", "--final-max", "3",
		"--hold", hold, "--gate-interval", "500ms", "--gates", "pods", "--stress-report", report, "--lease-duration", "3s", "--yes"}, extra...)
}

// kill -9 of osctl while it holds step 1; a second rollout is refused while the first renews its
// Lease (naming who holds it); resume needs the gates again: without the gate command, or with
// another one, it refuses and runs nothing; with the same gates it waits until the dead
// process's Lease stayed unchanged for its duration, takes over the same journal and completes
// the rollout. The journal never holds the command.
func TestKill9ThenResume(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	w := rollouttest.New(t, k, rollouttest.Options{})
	rd := testenv.StartRedis(t)
	const gateCmd = "true --token=s3cr3t-gate-token"
	p := startOsctl(t, k.Kubeconfig, w.NS, runArgs(t, w, rd.URL(), "4s", "--gate-cmd", gateCmd)...)
	waitHolding(t, w, 1, 2, p)
	if _, _, ann := w.HPA(t); strings.Contains(ann[rollout.AnnotationJournal], "s3cr3t") || strings.Contains(ann[rollout.AnnotationJournal], "--token") {
		t.Fatalf("the journal keeps the gate command: %s", ann[rollout.AnnotationJournal])
	}
	if j := journal(t, w); strings.Join(j.Plan.GateRecord.Names, ",") != "pods,cmd" || j.Version != rollout.JournalVersion {
		t.Fatalf("journal gates %+v (version %d)", j.Plan.GateRecord, j.Version)
	}

	// A second rollout while the first runs.
	code, _, errOut := osctl(t, k.Kubeconfig, w.NS, 60*time.Second, runArgs(t, w, rd.URL(), "1s")...)
	t.Logf("second rollout: exit %d: %s", code, errOut)
	if code != 2 || !strings.Contains(errOut, "held by") || !strings.Contains(errOut, "while this osctl watched") || !strings.Contains(errOut, "pid") {
		t.Fatalf("second rollout: exit %d\n%s", code, errOut)
	}

	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	if c := p.wait(t, 10*time.Second); c != -int(syscall.SIGKILL) {
		t.Fatalf("osctl exit %d after kill -9", c)
	}
	j := journal(t, w)
	if j.Phase != rollout.PhaseRunning || j.Step != 1 {
		t.Fatalf("journal after kill -9: %+v", j)
	}
	// status from another terminal: running.
	code, out, _ := osctl(t, k.Kubeconfig, w.NS, 30*time.Second, "rollout", "status", "--hpa", "web")
	if code != 0 || !strings.Contains(out, "RUNNING") || !strings.Contains(out, "step 1 of 2") {
		t.Fatalf("status: %d\n%s", code, out)
	}
	resume := []string{"--redis", rd.URL(), "rollout", "resume", "--hpa", "web", "--yes", "--lease-duration", "3s", "--gates", "pods"}
	// Without the gate command, or with another one: refused, nothing changed.
	code, _, errOut = osctl(t, k.Kubeconfig, w.NS, 30*time.Second, resume...)
	if code != 2 || !strings.Contains(errOut, "the gates given differ from the ones the rollout started with (it started with [pods, cmd]; the settings given make [pods]): pass the same gate flags as the original run") {
		t.Fatalf("resume without --gate-cmd: exit %d\n%s", code, errOut)
	}
	code, _, errOut = osctl(t, k.Kubeconfig, w.NS, 30*time.Second, append(resume, "--gate-cmd", "false --token=s3cr3t-gate-token")...)
	if code != 2 || !strings.Contains(errOut, "(the same gates [pods, cmd], with other settings)") || strings.Contains(errOut, "s3cr3t") {
		t.Fatalf("resume with another --gate-cmd: exit %d\n%s", code, errOut)
	}
	if j := journal(t, w); j.Phase != rollout.PhaseRunning || j.Step != 1 {
		t.Fatalf("journal after refused resumes: %+v", j)
	}
	code, out, errOut = osctl(t, k.Kubeconfig, w.NS, 90*time.Second, append(resume, "--gate-cmd", gateCmd)...)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out, errOut)
	}
	mustContain(t, "resume stdout", out, "rollout completed: HPA range 2-3", "resumed")
	t.Logf("resume:\n%s\n%s", out, errOut)
	if min, max, _ := w.HPA(t); min != 2 || max != 3 {
		t.Fatalf("HPA %d-%d after resume, want 2-3", min, max)
	}
	w.WaitSettled(t, 3, 10*time.Second)
	if j := journal(t, w); j.Phase != rollout.PhaseCompleted {
		t.Fatalf("journal %+v", j)
	}
}

// kill -9 mid-step, then undo restores the original range (--force takes over the Lease the dead
// process left at once, loudly, without waiting to see it unchanged).
func TestKill9ThenUndo(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	w := rollouttest.New(t, k, rollouttest.Options{})
	rd := testenv.StartRedis(t)
	p := startOsctl(t, k.Kubeconfig, w.NS, runArgs(t, w, rd.URL(), "60s")...)
	waitHolding(t, w, 1, 2, p)
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	p.wait(t, 10*time.Second)

	code, out, errOut := osctl(t, k.Kubeconfig, w.NS, 60*time.Second, "rollout", "undo", "--hpa", "web", "--yes", "--force")
	if code != 0 {
		t.Fatalf("undo --force: exit %d\n%s\n%s", code, out, errOut)
	}
	mustContain(t, "undo", out+errOut, "undone: HPA range restored to 1-1", "WARNING: --force: taking the rollout over from", "WARNING: forced: took over the Lease of")
	if min, max, _ := w.HPA(t); min != 1 || max != 1 {
		t.Fatalf("HPA %d-%d after undo, want 1-1", min, max)
	}
	w.WaitSettled(t, 1, 10*time.Second)
	if j := journal(t, w); j.Phase != rollout.PhaseUndone {
		t.Fatalf("journal %+v", j)
	}
	ev := strings.Join(w.Events(t), ",")
	mustContain(t, "Events", ev, "RolloutRollback", "RolloutRolledBack")
}

// Ctrl-C during a hold rolls back and exits 1; a second Ctrl-C during the rollback is refused
// with a message. The HPA starts at 3-3 (the first step lowers it to 2) and new pods take 3 s to
// count as available, so the rollback back up to 3 is still running at the second Ctrl-C.
func TestInterruptRollsBack(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	w := rollouttest.New(t, k, rollouttest.Options{Min: 3, Max: 3, MinReadySeconds: 3})
	rd := testenv.StartRedis(t)
	report := rollouttest.StressReport(t, w.NS, "clean", true, rollouttest.Image, 3, time.Now().Add(-time.Hour))
	p := startOsctl(t, k.Kubeconfig, w.NS, "--redis", rd.URL(), "rollout", "run", "--hpa", "web", "--steps", "2,3",
		"--hold", "60s", "--gate-interval", "1s", "--gates", "pods", "--stress-report", report, "--yes")
	waitHolding(t, w, 1, 2, p)
	mustContain(t, "stderr", p.stderr.String(), "step 1 lowers the HPA from 3 to 2")
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	testenv.WaitFor(t, 10*time.Second, "the rollback to start", func() (bool, error) {
		return strings.Contains(p.stderr.String(), "ROLLING BACK"), nil
	})
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	code := p.wait(t, 60*time.Second)
	errOut := p.stderr.String()
	if code != 1 {
		t.Fatalf("exit %d after Ctrl-C, want 1\n%s", code, errOut)
	}
	mustContain(t, "stderr", errOut, "interrupted: stopping the rollout and rolling back", "rollback in progress: NOT abandoning it",
		"rolled back to HPA range 3-3")
	if min, max, _ := w.HPA(t); min != 3 || max != 3 {
		t.Fatalf("HPA %d-%d, want 3-3", min, max)
	}
	w.WaitSettled(t, 3, 10*time.Second)
	if j := journal(t, w); j.Phase != rollout.PhaseRolledBack || !strings.Contains(j.Reason, "interrupted") {
		t.Fatalf("journal %+v", j)
	}
}
