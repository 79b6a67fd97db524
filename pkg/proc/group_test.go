package proc_test

import (
	"bufio"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/proc"
)

// TestGroupStopEndsWhatTheLeaderStarted: Stop reaches the leader's own child (a sleep in the
// background of a shell), not just the leader.
func TestGroupStopEndsWhatTheLeaderStarted(t *testing.T) {
	g, line := startShell(t, "sleep 300 & echo $!; wait")
	t.Cleanup(g.Kill)
	child, err := strconv.Atoi(line)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := proc.Stat(child); err != nil || st.PPid != g.Pid() {
		t.Fatalf("the sleep's status is %+v, %v; want the shell %d as its parent", st, err, g.Pid())
	}
	if g.Exited() {
		t.Fatal("the shell exited before it was stopped")
	}
	g.Stop(5 * time.Second)
	if !g.Exited() || g.Err() == nil {
		t.Fatalf("after Stop: exited %v, wait error %v; want a shell ended by a signal", g.Exited(), g.Err())
	}
	testenv.Eventually(t, 10*time.Second, "the shell's background sleep to end", func() bool { return !proc.Alive(child) })
}

// TestStatSeesAStoppedChild: Stat and Children read a real child's parent and state.
func TestStatSeesAStoppedChild(t *testing.T) {
	g, err := proc.Start(exec.Command("sleep", "300"), syscall.SIGKILL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Kill)
	kids, err := proc.Children(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(kids, g.Pid()) {
		t.Fatalf("Children(%d) = %v, want it to hold the sleep %d", os.Getpid(), kids, g.Pid())
	}
	if err := syscall.Kill(g.Pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 10*time.Second, "the sleep to be stopped", func() bool {
		st, err := proc.Stat(g.Pid())
		return err == nil && st.State == "T"
	})
	g.Kill()
	if _, err := proc.Stat(g.Pid()); err == nil {
		t.Fatalf("process %d still has a /proc entry after Kill and wait", g.Pid())
	}
}

// TestStopLeaderSignalsTheLeaderAlone: StopLeader's signal reaches the leader, not what it
// started (a supervisor stops its own children), and it says when the leader had to be killed.
func TestStopLeaderSignalsTheLeaderAlone(t *testing.T) {
	g, line := startShell(t, "sleep 300 & echo $!; wait")
	child, err := strconv.Atoi(line)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(child, syscall.SIGKILL) })
	if killed := g.StopLeader(syscall.SIGTERM, 10*time.Second); killed {
		t.Fatal("the shell was killed; SIGTERM should have ended it")
	}
	if !proc.Alive(child) {
		t.Fatalf("the shell's background sleep %d ended with the shell: StopLeader signalled the group", child)
	}
	if killed := g.StopLeader(syscall.SIGTERM, time.Second); killed {
		t.Fatal("StopLeader of an exited leader killed it again")
	}

	deaf, _ := startShell(t, `trap "" TERM; echo ready; while :; do sleep 0.05; done`) // the trap is set
	t.Cleanup(func() { _ = deaf.Signal(syscall.SIGKILL) })
	if killed := deaf.StopLeader(syscall.SIGTERM, 300*time.Millisecond); !killed || !deaf.Exited() {
		t.Fatalf("StopLeader of a shell that ignores SIGTERM: killed %v, exited %v; want both", killed, deaf.Exited())
	}
}

// startShell starts a shell running script as a group and returns it with the first line the
// script wrote, once it has written it.
func startShell(t *testing.T, script string) (*proc.Group, string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	g, err := proc.Start(cmd, syscall.SIGKILL)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		g.Kill()
		t.Fatal(err)
	}
	return g, strings.TrimSpace(line)
}
