package sandbox_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/proc"
	"github.com/osctl/osctl/pkg/sandbox"
)

// sleeper starts a real child process of this test (the supervisor, as far as the injector can
// tell) and ends it at the test's end.
func sleeperChild(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "120")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = syscall.Kill(cmd.Process.Pid, syscall.SIGCONT)
		_ = cmd.Process.Kill()
		<-done
	})
	return cmd
}

func writeProcesses(t *testing.T, p sandbox.Processes) string {
	t.Helper()
	dir := t.TempDir()
	b, _ := json.Marshal(p)
	if err := os.WriteFile(filepath.Join(dir, sandbox.ProcessesFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func procState(pid int) string {
	st, err := proc.Stat(pid)
	if err != nil {
		return "gone"
	}
	return st.State
}

// TestRunKillsAndPausesRealProcesses: a kill ends a replica process, a pause stops one for FOR
// and resumes it, and a fault due after the load is not injected.
func TestNemesisKillsAndPausesRealProcesses(t *testing.T) {
	a, b := sleeperChild(t), sleeperChild(t)
	dir := writeProcesses(t, sandbox.Processes{Supervisor: os.Getpid(), Restart: true,
		Replicas: []sandbox.Process{{Kind: "replica", Index: 0, Pid: a.Process.Pid}}})
	inj, err := sandbox.NewNemesis(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	faults, err := nemesis.Parse("pause-replica@0s+300ms,kill-replica@400ms,kill-replica@1h")
	if err != nil {
		t.Fatal(err)
	}
	if err := inj.Check(faults); err != nil {
		t.Fatal(err)
	}
	loadDone := make(chan struct{})
	paused := make(chan string, 1)
	go func() { // the state the replica was seen in during the pause (polled, at most 10 s)
		seen := procState(a.Process.Pid)
		for end := time.Now().Add(10 * time.Second); seen != "T" && time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
			seen = procState(a.Process.Pid)
		}
		paused <- seen
	}()
	time.AfterFunc(2*time.Second, func() { close(loadDone) })
	got := nemesis.Run(context.Background(), faults, inj, time.Now(), loadDone, t.Logf)
	if s := <-paused; s != "T" {
		t.Errorf("during the pause the replica was in state %s", s)
	}
	for i, want := range []string{nemesis.Done, nemesis.Done, nemesis.NotInjected} {
		if got[i].Outcome != want {
			t.Errorf("%v: outcome %q, want %q", got[i], got[i].Outcome, want)
		}
	}
	if got[0].Target != "replica 0 (pid "+strconv.Itoa(a.Process.Pid)+")" || got[0].Ended.Sub(got[0].Injected) < 300*time.Millisecond {
		t.Errorf("pause: %+v", got[0])
	}
	testenv.Eventually(t, 10*time.Second, "the killed replica gone", func() bool {
		s := procState(a.Process.Pid)
		return s == "Z" || s == "gone"
	})
	if s := procState(b.Process.Pid); s != "S" && s != "R" {
		t.Errorf("a process outside the sandbox's list is in state %s", s)
	}
}

// TestInjectRefusesAPidThatIsNotTheSandboxs: a processes file naming a process whose parent is
// not the supervisor (a stale file, a reused pid) signals nothing.
func TestNemesisRefusesAPidThatIsNotTheSandboxs(t *testing.T) {
	a := sleeperChild(t)
	dir := writeProcesses(t, sandbox.Processes{Supervisor: os.Getpid() + 1000000, Restart: true,
		Replicas: []sandbox.Process{{Kind: "replica", Pid: a.Process.Pid}}})
	inj, err := sandbox.NewNemesis(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = inj.Inject(nemesis.Fault{Kind: nemesis.KillReplica})
	if err == nil || !strings.Contains(err.Error(), "not the sandbox's") {
		t.Fatalf("Inject: %v", err)
	}
	if s := procState(a.Process.Pid); s == "Z" || s == "gone" {
		t.Error("the process was killed")
	}
}

func TestNemesisCheckRefusesWhatTheSandboxCannotTake(t *testing.T) {
	if _, err := sandbox.NewNemesis(t.TempDir(), 1); err == nil || !strings.Contains(err.Error(), "running 'osctl sandbox up'") {
		t.Errorf("no processes file: %v", err)
	}
	rep := []sandbox.Process{{Kind: "replica", Pid: 1}}
	for _, c := range []struct {
		p    sandbox.Processes
		spec string
		want string
	}{
		{sandbox.Processes{Replicas: rep}, "kill-replica@1s", "does not restart"},
		{sandbox.Processes{Replicas: rep, Restart: true}, "pause-redis@1s+1s", "started none"},
		{sandbox.Processes{Replicas: rep, Restart: true}, "restart-redis@1s", "started none"},
	} {
		inj, err := sandbox.NewNemesis(writeProcesses(t, c.p), 1)
		if err != nil {
			t.Fatal(err)
		}
		faults, _ := nemesis.Parse(c.spec)
		if err := inj.Check(faults); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check = %v, want %q", c.spec, err, c.want)
		}
	}
}
