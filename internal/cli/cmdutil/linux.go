package cmdutil

import (
	"fmt"
	"runtime"
)

// NeedsLinux is the error (exit 2) of a command that needs what only Linux gives (process groups
// that die with their parent, /proc, this machine's mountinfo, Linux's NFS client locks) when it
// runs on another system, such as an SRE's Mac: "osctl sandbox needs Linux: why". It is nil on
// Linux.
func NeedsLinux(command, why string) error {
	return needsLinux(runtime.GOOS, command, why)
}

func needsLinux(goos, command, why string) error {
	if goos == "linux" {
		return nil
	}
	return fmt.Errorf("osctl %s needs Linux (this is %s): %s", command, goos, why)
}
