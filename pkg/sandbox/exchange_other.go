//go:build !linux

package sandbox

import "golang.org/x/sys/unix"

// exchange is ENOSYS: only Linux exchanges two paths atomically, so swapDir moves the old
// directory aside first.
func exchange(_, _ string) error { return unix.ENOSYS }
