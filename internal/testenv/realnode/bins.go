//go:build linux

package realnode

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/osctl/osctl/internal/testenv"
)

// ContainerdVersion is the containerd that scripts/realnode-build.sh builds; the kubelet and
// kube-proxy are testenv.K8sVersion, as the control plane.
const ContainerdVersion = "v2.4.2"

// BinEnv names the directory of kubelet, kube-proxy, containerd, containerd-shim-runc-v2 and ctr
// (make test sets it from scripts/realnode-build.sh); unset, the versioned cache is looked in.
const BinEnv = "OSCTL_REALNODE_BIN"

// CNIDir is where Debian's containernetworking-plugins put bridge, host-local and loopback.
const CNIDir = "/usr/lib/cni"

// BinDir returns the directory of the node binaries ($OSCTL_REALNODE_BIN, else the cache that
// scripts/realnode-build.sh fills).
func BinDir() string {
	if d := os.Getenv(BinEnv); d != "" {
		return d
	}
	cache := os.Getenv("OSCTL_CACHE")
	if cache == "" {
		cache = "/var/cache/osctl"
	}
	return filepath.Join(cache, fmt.Sprintf("realnode-k8s-%s-containerd-%s", testenv.K8sVersion, ContainerdVersion), "bin")
}

// Missing lists what a real node needs that this machine lacks, each with how to get it.
func Missing() []string {
	var out []string
	bin := BinDir()
	for _, b := range []string{"kubelet", "kube-proxy", "containerd", "containerd-shim-runc-v2", "ctr"} {
		if _, err := os.Stat(filepath.Join(bin, b)); err != nil {
			out = append(out, filepath.Join(bin, b)+" (run scripts/realnode-build.sh)")
		}
	}
	for _, b := range []string{"runc", "nsenter", "unshare", "iptables", "ip", "ldd"} {
		if _, err := exec.LookPath(b); err != nil {
			out = append(out, b+" (scripts/test-deps.sh installs it)")
		}
	}
	for _, p := range []string{"bridge", "host-local", "loopback"} {
		if _, err := os.Stat(filepath.Join(CNIDir, p)); err != nil {
			out = append(out, filepath.Join(CNIDir, p)+" (apt-get install containernetworking-plugins)")
		}
	}
	if _, err := busyboxPath(); err != nil {
		out = append(out, err.Error())
	}
	if _, ok := testenv.KubeBinDir(); !ok {
		out = append(out, "the control plane (run scripts/k8s-build.sh)")
	}
	if os.Geteuid() != 0 {
		out = append(out, "root (namespaces, mounts and cgroups)")
	}
	return out
}

// runcPath is Debian's runc (containerd's shim runs it by this path).
func runcPath() string {
	if p, err := exec.LookPath("runc"); err == nil {
		return p
	}
	return "/usr/sbin/runc"
}
