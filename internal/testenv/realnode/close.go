//go:build linux

package realnode

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/osctl/osctl/pkg/proc"
)

// Close stops everything Start started, by pid, newest first: kube-proxy, each node (kubelet,
// its pods, containerd, the runc shims, the holder of its mount namespace, its cgroups), the
// relays, the holder of the network namespace, the control plane; then removes the run
// directory it made. It reports what it could not stop or remove.
func (c *Cluster) Close() error {
	var errs []error
	if c.kubeProxy != nil {
		c.kubeProxy.Stop(10 * time.Second)
	}
	for i := len(c.Nodes) - 1; i >= 0; i-- {
		if err := c.Nodes[i].stop(); err != nil {
			errs = append(errs, err)
		}
	}
	if c.fwd != nil {
		c.fwd.Close()
	}
	if c.egress != nil {
		c.egress.Close()
	}
	if c.netHolder != nil {
		if left := killAll(pidsInNamespace("net", c.netIno, c.netHolder.Pid()), syscall.SIGKILL, 10*time.Second); len(left) > 0 {
			errs = append(errs, fmt.Errorf("processes still alive in the nodes' network namespace: %s", describe(left)))
		}
		c.netHolder.Kill()
	}
	if c.Kube != nil {
		c.Kube.Stop()
	}
	if left := c.Leftovers(); len(left) > 0 {
		errs = append(errs, fmt.Errorf("left behind: %v", left))
	}
	if c.ownDir && len(errs) == 0 {
		if err := os.RemoveAll(c.Dir); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Leftovers lists what of the cluster is still there: a process in its namespaces or cgroups,
// a node's cgroup, a mount under its run directory, a process it started.
func (c *Cluster) Leftovers() []string {
	var out []string
	if c.netHolder != nil {
		if !c.netHolder.Exited() {
			out = append(out, fmt.Sprintf("the network namespace's holder %d", c.netHolder.Pid()))
		}
		if ps := pidsInNamespace("net", c.netIno, 0); len(ps) > 0 {
			out = append(out, "processes in the nodes' network namespace: "+describe(ps))
		}
	}
	for _, n := range c.Nodes {
		if ps := pidsInNamespace("mnt", n.mntIno, 0); len(ps) > 0 {
			out = append(out, n.Name+": processes in its mount namespace: "+describe(ps))
		}
		if ps := pidsInCgroup(n.Cgroup); len(ps) > 0 {
			out = append(out, n.Name+": processes in its cgroups: "+describe(ps))
		}
		if ds := cgroupDirs(n.Cgroup); len(ds) > 0 {
			out = append(out, fmt.Sprintf("%s: cgroups %v", n.Name, ds))
		}
		for i, g := range []*proc.Group{n.kubelet, n.containerd, n.holder} {
			if g != nil && !g.Exited() {
				out = append(out, fmt.Sprintf("%s: its %s %d is still running", n.Name, []string{"kubelet", "containerd", "mount namespace holder"}[i], g.Pid()))
			}
		}
	}
	if ms := mountsUnder(c.Dir); len(ms) > 0 {
		out = append(out, fmt.Sprintf("mounts %v", ms))
	}
	return out
}
