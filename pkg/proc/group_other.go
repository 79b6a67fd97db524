//go:build unix && !linux

package proc

import "syscall"

// GroupAttr is the SysProcAttr of a process group (Setpgid); only Linux has a death signal, so
// deathSig is not sent.
func GroupAttr(_ syscall.Signal) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
