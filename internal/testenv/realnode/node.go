//go:build linux

package realnode

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/osctl/osctl/pkg/proc"
)

// Node is one real node: its own mount namespace (inside the cluster's network namespace),
// bridge, containerd, kubelet and cgroup root.
type Node struct {
	Name   string // node-1, node-2, ...
	IP     string // on its bridge: 10.88.0.1 for node-1, 10.89.0.1 for node-2
	CIDR   string // its pods' addresses
	Bridge string
	Dir    string
	Cgroup string // the kubelet's cgroupRoot, unique on this machine

	index                       int
	c                           *Cluster
	holder, containerd, kubelet *proc.Group
	mntIno                      uint64
}

func newNode(c *Cluster, i int) *Node {
	return &Node{
		Name: fmt.Sprintf("node-%d", i), IP: fmt.Sprintf("10.%d.0.1", 87+i), CIDR: fmt.Sprintf("10.%d.0.0/16", 87+i),
		Bridge: fmt.Sprintf("cni%d", i-1), Dir: filepath.Join(c.Dir, "nodes", fmt.Sprintf("node-%d", i)),
		Cgroup: fmt.Sprintf("osctl-realnode-%d-%d-node-%d", os.Getpid(), c.id, i), index: i, c: c,
	}
}

// Socket is the node's containerd socket.
func (n *Node) Socket() string { return filepath.Join(n.Dir, "containerd", "containerd.sock") }

// Command is cmd run inside the node's network and mount namespaces.
func (n *Node) Command(name string, args ...string) *exec.Cmd {
	return exec.Command("nsenter", append([]string{"--target", fmt.Sprint(n.holder.Pid()), "--net", "--mount", "--", name}, args...)...)
}

// Ctr runs ctr against the node's containerd in namespace k8s.io.
func (n *Node) Ctr(args ...string) (string, error) {
	out, err := n.Command(filepath.Join(n.c.bin, "ctr"), append([]string{"--address", n.Socket(), "-n", "k8s.io"}, args...)...).CombinedOutput()
	return string(out), err
}

func (n *Node) start() error {
	for _, d := range []string{"run", "varlib", "varlog", "containerd", "kubelet", "kubelet-pki", "pod-logs", "sysctl", "cni/net.d", "cni/ipam", "volume-plugins"} {
		if err := os.MkdirAll(filepath.Join(n.Dir, d), 0o755); err != nil {
			return err
		}
	}
	if err := n.startHolder(); err != nil {
		return err
	}
	if err := n.mounts(); err != nil {
		return err
	}
	if err := n.cgroups(); err != nil {
		return err
	}
	if err := n.startContainerd(); err != nil {
		return err
	}
	return n.startKubelet()
}

// startHolder starts the process that holds the node's mount namespace (in the cluster's
// network namespace) for as long as the node runs.
func (n *Node) startHolder() error {
	cmd := exec.Command("nsenter", "--target", fmt.Sprint(n.c.netHolder.Pid()), "--net", "--",
		"unshare", "--mount", "--propagation", "private", "--", "sleep", "infinity")
	g, err := proc.Start(cmd, syscall.SIGKILL)
	if err != nil {
		return fmt.Errorf("%s: mount namespace: %w", n.Name, err)
	}
	n.holder = g
	host := nsInode(os.Getpid(), "mnt")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if ino := nsInode(g.Pid(), "mnt"); ino != 0 && ino != host && nsInode(g.Pid(), "net") == n.c.netIno {
			n.mntIno = ino
			return nil
		}
		if g.Exited() || time.Now().After(deadline) {
			return fmt.Errorf("%s: the mount namespace's holder did not start", n.Name)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sysctls are the values the kubelet insists on (it writes them, or refuses with
// protectKernelDefaults). Inside the node's mount namespace, files holding them are bind-mounted
// over the /proc/sys entries, so that the machine's kernel settings never change.
var sysctls = []string{"kernel/panic=10", "kernel/panic_on_oops=1", "vm/overcommit_memory=1", "vm/panic_on_oom=0",
	"kernel/keys/root_maxkeys=1000000", "kernel/keys/root_maxbytes=25000000"}

// mounts makes / shared inside the node (pods' mount propagation) and gives the node its own
// /run, /var/lib and /var/log (paths containerd, the kubelet and CNI hard-code), and its sysctls.
func (n *Node) mounts() error {
	var s strings.Builder
	s.WriteString("set -e\nmount --make-rshared /\n")
	for _, m := range [][2]string{{"run", "/run"}, {"varlib", "/var/lib"}, {"varlog", "/var/log"}} {
		fmt.Fprintf(&s, "mount --bind %s %s\n", filepath.Join(n.Dir, m[0]), m[1])
	}
	for _, kv := range sysctls {
		k, v, _ := strings.Cut(kv, "=")
		cur, err := os.ReadFile("/proc/sys/" + k)
		if err != nil || strings.TrimSpace(string(cur)) == v {
			continue
		}
		f := filepath.Join(n.Dir, "sysctl", strings.ReplaceAll(k, "/", "."))
		if err := os.WriteFile(f, []byte(v+"\n"), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&s, "mount --bind %s /proc/sys/%s\n", f, k)
	}
	cmd := exec.Command("nsenter", "--target", fmt.Sprint(n.holder.Pid()), "--mount", "--", "sh", "-c", s.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: mounts: %v: %s", n.Name, err, out)
	}
	return nil
}

// cgroups makes the node's cgroup root in every v1 hierarchy (cpuset needs its cpus and mems).
func (n *Node) cgroups() error {
	hs, _ := filepath.Glob(filepath.Join(cgroupRoot, "*"))
	for _, h := range hs {
		if fi, err := os.Stat(h); err != nil || !fi.IsDir() {
			continue
		}
		if err := os.Mkdir(filepath.Join(h, n.Cgroup), 0o755); err != nil && !os.IsExist(err) {
			return fmt.Errorf("%s: cgroup: %w", n.Name, err)
		}
	}
	for _, f := range []string{"cpuset.cpus", "cpuset.mems"} {
		b, err := os.ReadFile(filepath.Join(cgroupRoot, "cpuset", f))
		if err != nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(cgroupRoot, "cpuset", n.Cgroup, f), b, 0o644); err != nil {
			return fmt.Errorf("%s: cgroup %s: %w", n.Name, f, err)
		}
	}
	return nil
}

// daemon starts a node daemon in the node's namespaces, its output in logs/NAME.log.
func (n *Node) daemon(name string, env []string, bin string, args ...string) (*proc.Group, error) {
	logf, err := os.Create(filepath.Join(n.c.Dir, "logs", n.Name+"-"+name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := n.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(os.Environ(), env...)
	g, err := proc.Start(cmd, syscall.SIGKILL)
	if err != nil {
		logf.Close()
		return nil, fmt.Errorf("%s: starting %s: %w", n.Name, name, err)
	}
	go func() { <-g.Done(); logf.Close() }()
	return g, nil
}

func (n *Node) startContainerd() error {
	cd := filepath.Join(n.Dir, "containerd")
	if err := os.WriteFile(filepath.Join(cd, "config.toml"), []byte(containerdConfig(cd, n)), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(n.Dir, "cni", "net.d", "10-osctl.conflist"), []byte(cniConfig(n)), 0o644); err != nil {
		return err
	}
	if err := n.runContainerd("containerd"); err != nil {
		return err
	}
	for _, img := range n.c.images {
		if out, err := n.Ctr("images", "import", img); err != nil {
			return fmt.Errorf("%s: importing %s: %v: %s", n.Name, img, err, out)
		}
	}
	return nil
}

func (n *Node) startKubelet() error {
	cfg := filepath.Join(n.Dir, "kubelet-config.yaml")
	if err := os.WriteFile(cfg, []byte(kubeletConfig(n)), 0o644); err != nil {
		return err
	}
	kc, err := n.c.writeKubeconfig(n.Name, n.Name)
	if err != nil {
		return err
	}
	g, err := n.daemon("kubelet", nil, filepath.Join(n.c.bin, "kubelet"), "--config="+cfg, "--kubeconfig="+kc,
		"--root-dir="+filepath.Join(n.Dir, "kubelet"), "--cert-dir="+filepath.Join(n.Dir, "kubelet-pki"),
		"--hostname-override="+n.Name, "--node-ip="+n.IP, "--v=1")
	n.kubelet = g
	return err
}

// stop ends the node: the kubelet, every process in its cgroups (the pods), containerd, what is
// left in its mount namespace (the runc shims), the namespace's holder; then removes its cgroups.
func (n *Node) stop() error {
	var errs []string
	for _, g := range []*proc.Group{n.kubelet} {
		if g != nil {
			g.Stop(10 * time.Second)
		}
	}
	if left := killAll(pidsInCgroup(n.Cgroup), syscall.SIGKILL, 10*time.Second); len(left) > 0 {
		errs = append(errs, "pod processes still alive: "+describe(left))
	}
	if n.containerd != nil {
		n.containerd.Stop(10 * time.Second)
	}
	if n.holder != nil {
		if left := sweep(func() []int {
			return append(pidsInNamespace("mnt", n.mntIno, n.holder.Pid()), pidsInCgroup(n.Cgroup)...)
		}, 15*time.Second); len(left) > 0 {
			errs = append(errs, "processes still alive in the node's mount namespace or cgroups: "+describe(left))
		}
		n.holder.Kill()
	}
	if err := removeCgroup(n.Cgroup, 15*time.Second); err != nil {
		errs = append(errs, err.Error())
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s: %s", n.Name, strings.Join(errs, "; "))
	}
	return nil
}

// waitReady waits until the API server has node n Ready.
func (n *Node) waitReady(ctx context.Context) error {
	for {
		out, err := n.c.kubectl("get", "node", n.Name, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
		if err == nil && strings.TrimSpace(out) == "True" {
			return nil
		}
		if n.kubelet.Exited() {
			return fmt.Errorf("%s: the kubelet exited: %s", n.Name, n.c.logTail(n.Name+"-kubelet"))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s not Ready: %s", n.Name, n.c.logTail(n.Name+"-kubelet"))
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// PodPids lists the processes in the node's cgroups: its pods' containers.
func (n *Node) PodPids() []int { return pidsInCgroup(n.Cgroup) }

// KillContainerd kills the node's container runtime (SIGKILL, by the pid the harness started):
// its containers and their shims go on; the kubelet loses its runtime. It returns the pid.
func (n *Node) KillContainerd() int {
	pid := n.containerd.Pid()
	_ = n.containerd.Cmd.Process.Kill() // the leader alone: not its group
	<-n.containerd.Done()
	return pid
}

// RestartContainerd starts the node's containerd again after KillContainerd (on the same state:
// its images and containers), and waits until it answers.
func (n *Node) RestartContainerd() error { return n.runContainerd("containerd-restarted") }

// runContainerd starts containerd on the node's config (its log named after name) and waits
// until it answers.
func (n *Node) runContainerd(name string) error {
	g, err := n.daemon(name, []string{"PATH=" + n.c.bin + ":" + os.Getenv("PATH")},
		filepath.Join(n.c.bin, "containerd"), "--config", filepath.Join(n.Dir, "containerd", "config.toml"))
	if err != nil {
		return err
	}
	n.containerd = g
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := n.Ctr("version"); err == nil {
			return nil
		}
		if g.Exited() || time.Now().After(deadline) {
			return fmt.Errorf("%s: %s did not start: %s", n.Name, name, n.c.logTail(n.Name+"-"+name))
		}
		time.Sleep(200 * time.Millisecond)
	}
}
