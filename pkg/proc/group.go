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

// Start starts cmd as the leader of a new process group. The kernel sends cmd deathSig when this
// process dies (0: nothing is sent). cmd is waited for in the background; Done is closed then.
func Start(cmd *exec.Cmd, deathSig syscall.Signal) (*Group, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: deathSig}
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

// Signal sends sig to every process of the group.
func (g *Group) Signal(sig syscall.Signal) error { return KillGroup(g.Pid(), sig) }

// Kill sends SIGKILL to the group and waits for the leader.
func (g *Group) Kill() {
	_ = g.Signal(syscall.SIGKILL)
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

// KillGroup sends sig to the process group whose id is pgid.
func KillGroup(pgid int, sig syscall.Signal) error { return syscall.Kill(-pgid, sig) }
