package files

import (
	"syscall"
	"time"
)

// statTimes are st's modification and change times.
func statTimes(st *syscall.Stat_t) (mtime, ctime time.Time) {
	return time.Unix(st.Mtimespec.Sec, st.Mtimespec.Nsec), time.Unix(st.Ctimespec.Sec, st.Ctimespec.Nsec)
}
