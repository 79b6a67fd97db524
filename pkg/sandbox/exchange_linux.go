package sandbox

import "golang.org/x/sys/unix"

// exchange swaps the paths src and dst atomically (renameat2 RENAME_EXCHANGE).
func exchange(src, dst string) error {
	return unix.Renameat2(unix.AT_FDCWD, src, unix.AT_FDCWD, dst, unix.RENAME_EXCHANGE)
}
