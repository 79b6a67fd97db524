package files

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// localOpeners returns the ids of the processes on this machine, other than this one, that have
// the file dev/inode open, as far as /proc lets this user see. It cannot see processes on other
// NFS clients, nor, without privilege, other users' processes: an empty answer proves nothing
// about them.
func localOpeners(procRoot string, dev, inode uint64) []int {
	entries, err := os.ReadDir(procRoot)
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		fdDir := filepath.Join(procRoot, e.Name(), "fd")
		fds, err := os.ReadDir(fdDir)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			var st syscall.Stat_t
			if syscall.Stat(filepath.Join(fdDir, fd.Name()), &st) == nil && uint64(st.Dev) == dev && st.Ino == inode {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}
