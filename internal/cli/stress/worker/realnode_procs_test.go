//go:build linux

package worker_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/osctl/osctl/internal/testenv/realnode"
)

// workerProc is an `osctl stress worker` process in a node's pods, as this machine sees it.
type workerProc struct {
	Pid   int    // on this machine
	NSPid int    // in its container
	Idle  bool   // the pod's main process (--idle), not a load worker run through exec
	Cg    string // its cgroups, which name its pod's uid
}

// workerProcs lists the `osctl stress worker` processes in node's cgroups.
func workerProcs(node *realnode.Node) []workerProc {
	var out []workerProc
	for _, pid := range node.PodPids() {
		cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil || !bytes.HasPrefix(cmd, []byte("osctl\x00stress\x00worker\x00")) {
			continue
		}
		st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		cg, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
		p := workerProc{Pid: pid, Idle: bytes.Contains(cmd, []byte("\x00--idle\x00")), Cg: string(cg)}
		for _, line := range strings.Split(string(st), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "NSpid:" {
				_, _ = fmt.Sscan(f[len(f)-1], &p.NSPid)
			}
		}
		out = append(out, p)
	}
	return out
}

// loadWorkerPid finds, on this machine, the load worker (the exec'd `osctl stress worker`) of the
// pod with uid, whose pid in its container is nsPid; 0 when there is none.
func loadWorkerPid(node *realnode.Node, uid string, nsPid int) int {
	for _, p := range workerProcs(node) {
		inPod := strings.Contains(p.Cg, "pod"+uid) || strings.Contains(p.Cg, "pod"+strings.ReplaceAll(uid, "-", "_"))
		if !p.Idle && inPod && p.NSPid == nsPid {
			return p.Pid
		}
	}
	return 0
}

// memoryCgroup is the directory of pid's memory cgroup (cgroup v1).
func memoryCgroup(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.SplitN(line, ":", 3); len(f) == 3 && strings.Contains(","+f[1]+",", ",memory,") {
			return "/sys/fs/cgroup/memory" + f[2]
		}
	}
	return ""
}

// oomKills is how many processes the kernel's OOM killer killed in the memory cgroup dir
// (memory.oom_control's oom_kill), -1 when it cannot tell.
func oomKills(dir string) int {
	b, err := os.ReadFile(dir + "/memory.oom_control")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "oom_kill" {
			n := -1
			_, _ = fmt.Sscan(f[1], &n)
			return n
		}
	}
	return -1
}
