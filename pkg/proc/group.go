package proc

import (
	"os/exec"
	"syscall"
	"time"
)

// Group is a started command that leads its own process group, so that a signal to it reaches
// whatever the command started too.
type Group struct {
	Cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// Start starts cmd as the leader of a new process group. On Linux the kernel sends cmd deathSig
// when this process dies (0: nothing is sent); other systems have no such signal. cmd is waited
// for in the background; Done is closed then.
func Start(cmd *exec.Cmd, deathSig syscall.Signal) (*Group, error) {
	cmd.SysProcAttr = GroupAttr(deathSig)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	g := &Group{Cmd: cmd, done: make(chan struct{})}
	go func() { g.err = cmd.Wait(); close(g.done) }()
	return g, nil
}

// Pid is the leader's process id, which is also the group's id.
func (g *Group) Pid() int { return g.Cmd.Process.Pid }

// Done is closed once the leader has exited and been waited for.
func (g *Group) Done() <-chan struct{} { return g.done }

// Err is what waiting for the leader returned; it is nil until Done is closed.
func (g *Group) Err() error {
	if !g.Exited() {
		return nil
	}
	return g.err
}

// Exited reports whether the leader has exited.
func (g *Group) Exited() bool {
	select {
	case <-g.done:
		return true
	default:
		return false
	}
}

// Signal sends sig to every process of the group. After the leader has exited it still reaches
// what the leader left running in the group; that is for a caller that ends such strays at once.
func (g *Group) Signal(sig syscall.Signal) error { return syscall.Kill(-g.Pid(), sig) }

// Kill sends SIGKILL to the group and waits for the leader. It signals nothing once the leader
// has exited, so that a group id the kernel may since have given to another process is never
// signalled.
func (g *Group) Kill() {
	if !g.Exited() {
		_ = g.Signal(syscall.SIGKILL)
	}
	<-g.done
}

// Stop sends SIGTERM to the group, then SIGKILL if the leader has not exited within grace, and
// waits for it. It does nothing to a group whose leader has exited.
func (g *Group) Stop(grace time.Duration) {
	if g.Exited() {
		return
	}
	_ = g.Signal(syscall.SIGTERM)
	select {
	case <-g.done:
	case <-time.After(grace):
		g.Kill()
	}
}

// StopLeader sends sig to the leader alone, for a leader that stops its own children (a
// supervisor, Passenger), then SIGKILL to the leader if it has not exited within grace, and waits
// for it. It reports whether the leader had to be killed; it does nothing to an exited leader.
func (g *Group) StopLeader(sig syscall.Signal, grace time.Duration) (killed bool) {
	if g.Exited() {
		return false
	}
	_ = g.Cmd.Process.Signal(sig)
	select {
	case <-g.done:
		return false
	case <-time.After(grace):
		_ = g.Cmd.Process.Kill()
		<-g.done
		return true
	}
}
