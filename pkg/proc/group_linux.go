package proc

import "syscall"

// GroupAttr is the SysProcAttr of a process group (Setpgid) whose leader gets deathSig when
// this process dies.
func GroupAttr(deathSig syscall.Signal) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: deathSig}
}
