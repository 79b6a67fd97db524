//go:build unix && !linux

package proc

import "syscall"

// groupAttr starts a process group; only Linux has a death signal, so deathSig is not sent.
func groupAttr(_ syscall.Signal) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
