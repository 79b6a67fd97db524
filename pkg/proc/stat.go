package proc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Status is what /proc/<pid>/stat says of a process.
type Status struct {
	// State is the kernel's one-letter state: R, S, D, T (stopped), Z (zombie), ...
	State string
	// PPid is the parent's process id.
	PPid int
}

// Stat reads /proc/<pid>/stat. It fails when the process is gone.
func Stat(pid int) (Status, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Status{}, fmt.Errorf("process %d is gone", pid)
	}
	return parseStat(string(b))
}

// parseStat reads "pid (comm) state ppid ...". comm may hold spaces and parentheses, so the
// fields are read after the last ')'.
func parseStat(s string) (Status, error) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return Status{}, fmt.Errorf("unreadable /proc stat line %q", s)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return Status{}, fmt.Errorf("unreadable /proc stat line %q", s)
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return Status{}, fmt.Errorf("unreadable /proc stat line %q", s)
	}
	return Status{State: f[0], PPid: ppid}, nil
}

// Alive reports whether pid is a process that has not exited (a zombie has).
func Alive(pid int) bool {
	st, err := Stat(pid)
	return err == nil && st.State != "Z"
}

// Children lists the processes whose parent is pid.
func Children(pid int) ([]int, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var out []int
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := Stat(p); err == nil && st.PPid == pid {
			out = append(out, p)
		}
	}
	return out, nil
}
