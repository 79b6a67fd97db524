package files

import (
	"syscall"
	"time"
)

// statTimes are st's modification and change times.
func statTimes(st *syscall.Stat_t) (mtime, ctime time.Time) {
	return time.Unix(st.Mtim.Sec, st.Mtim.Nsec), time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
}
