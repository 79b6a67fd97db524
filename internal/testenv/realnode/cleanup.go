//go:build linux

package realnode

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/osctl/osctl/pkg/proc"
)

// cgroupRoot is where the v1 hierarchies are mounted.
const cgroupRoot = "/sys/fs/cgroup"

// nsInode is the inode of namespace kind ("net", "mnt") of pid; 0 when it cannot be read (a
// process that is gone, or a zombie).
func nsInode(pid int, kind string) uint64 {
	fi, err := os.Stat(fmt.Sprintf("/proc/%d/ns/%s", pid, kind))
	if err != nil {
		return 0
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}

// pids lists the processes of this machine.
func pids() []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		if p, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// pidsInNamespace lists the live processes whose namespace of kind has inode ino, but for skip.
func pidsInNamespace(kind string, ino uint64, skip int) []int {
	var out []int
	if ino == 0 {
		return nil
	}
	for _, p := range pids() {
		if p != skip && p != os.Getpid() && nsInode(p, kind) == ino && proc.Alive(p) {
			out = append(out, p)
		}
	}
	return out
}

// cgroupDirs are the directories of cgroup name in every v1 hierarchy that has it.
func cgroupDirs(name string) []string {
	hs, _ := filepath.Glob(filepath.Join(cgroupRoot, "*", name))
	return hs
}

// pidsInCgroup lists the processes in cgroup name or below it, in any hierarchy.
func pidsInCgroup(name string) []int {
	seen := map[int]bool{}
	for _, d := range cgroupDirs(name) {
		_ = filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() || e.Name() != "cgroup.procs" {
				return nil
			}
			f, err := os.Open(p)
			if err != nil {
				return nil
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if n, err := strconv.Atoi(strings.TrimSpace(sc.Text())); err == nil && proc.Alive(n) {
					seen[n] = true
				}
			}
			return nil
		})
	}
	out := make([]int, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Ints(out)
	return out
}

// sweep kills (SIGKILL) what list gives, and lists again until it gives nothing, for up to limit:
// a process started between a listing and its kill (a shim starting a container's process as
// the node stops) is in the next listing. It returns what was still listed at the limit.
func sweep(list func() []int, limit time.Duration) []int {
	deadline := time.Now().Add(limit)
	for {
		ps := list()
		if len(ps) == 0 {
			return nil
		}
		killAll(ps, syscall.SIGKILL, time.Until(deadline))
		if time.Now().After(deadline) {
			return list()
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// killAll sends sig to each pid, then waits up to limit for all of them to be gone.
func killAll(ps []int, sig syscall.Signal, limit time.Duration) (left []int) {
	for _, p := range ps {
		_ = syscall.Kill(p, sig)
	}
	deadline := time.Now().Add(limit)
	for {
		left = left[:0]
		for _, p := range ps {
			if proc.Alive(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// removeCgroup removes cgroup name and everything below it in every hierarchy, deepest first,
// trying for up to limit (a cgroup whose last process just died is busy for a moment).
func removeCgroup(name string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		var busy []string
		for _, d := range cgroupDirs(name) {
			var dirs []string
			_ = filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
				if err == nil && e.IsDir() {
					dirs = append(dirs, p)
				}
				return nil
			})
			for i := len(dirs) - 1; i >= 0; i-- {
				if err := syscall.Rmdir(dirs[i]); err != nil && !os.IsNotExist(err) {
					busy = append(busy, dirs[i])
				}
			}
		}
		if len(busy) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cgroups left: %s", strings.Join(busy, " "))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// mountsUnder lists this mount namespace's mount points under dir.
func mountsUnder(dir string) []string {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) > 4 && (fs[4] == dir || strings.HasPrefix(fs[4], dir+"/")) {
			out = append(out, fs[4])
		}
	}
	return out
}

func comm(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	return strings.TrimSpace(string(b))
}

func describe(ps []int) string {
	var s []string
	for _, p := range ps {
		s = append(s, fmt.Sprintf("%d (%s)", p, comm(p)))
	}
	return strings.Join(s, ", ")
}
