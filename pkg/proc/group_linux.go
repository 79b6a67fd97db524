package proc

import "syscall"

// groupAttr starts a process group whose leader gets deathSig when this process dies.
func groupAttr(deathSig syscall.Signal) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: deathSig}
}
