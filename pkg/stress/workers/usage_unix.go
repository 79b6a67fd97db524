//go:build unix

package workers

import (
	"runtime"
	"syscall"
)

// usage is this process's CPU time so far (user and system, seconds) and its peak resident set
// (bytes).
func usage() (cpu float64, maxRSS int64) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, 0
	}
	cpu = float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
	if runtime.GOOS == "darwin" {
		return cpu, int64(ru.Maxrss) // bytes there
	}
	return cpu, int64(ru.Maxrss) * 1024 // kilobytes
}
