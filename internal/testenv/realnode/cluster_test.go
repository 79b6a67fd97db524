//go:build linux

package realnode_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/realnode"
)

func TestMain(m *testing.M) { os.Exit(testenv.RunMain(m)) }

// hostView is what of this machine a node could change: mounts of its paths, bridges and veths,
// Kubernetes' and CNI's iptables rules, the sysctls the kubelet wants. Other tests running at the
// same time may change other things, so only these are looked at.
func hostView(t *testing.T, dir string) map[string]string {
	t.Helper()
	v := map[string]string{}
	grep := func(text string, keep func(string) bool) string {
		var out []string
		for _, l := range strings.Split(text, "\n") {
			if keep(l) {
				out = append(out, l)
			}
		}
		return strings.Join(out, "\n")
	}
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	v["mounts"] = grep(string(mi), func(l string) bool {
		return (dir != "" && strings.Contains(l, dir)) || strings.Contains(l, "containerd") || strings.Contains(l, "kubelet") || strings.Contains(l, "/run/netns")
	})
	links, err := exec.Command("ip", "-o", "link").Output()
	if err != nil {
		t.Fatal(err)
	}
	v["links"] = grep(string(links), func(l string) bool { return strings.Contains(l, ": cni") || strings.Contains(l, ": veth") })
	ipt, _ := exec.Command("iptables-save").Output()
	v["iptables"] = grep(string(ipt), func(l string) bool { return strings.Contains(l, "KUBE-") || strings.Contains(l, "CNI-") })
	for _, k := range []string{"kernel/panic", "kernel/panic_on_oops", "vm/overcommit_memory", "vm/panic_on_oom"} {
		b, _ := os.ReadFile("/proc/sys/" + k)
		v["sysctl "+k] = string(b)
	}
	return v
}

func sameHost(t *testing.T, when string, before, now map[string]string) {
	t.Helper()
	for k, b := range before {
		if now[k] != b {
			t.Errorf("%s, this machine's %s changed:\nbefore:\n%s\nnow:\n%s", when, k, b, now[k])
		}
	}
}

// TestRealNodeRunsAPodAndLeavesNothing: a real node runs a pod whose exec shows the container's
// own mounts, without changing this machine's mounts, links, iptables rules or sysctls; after
// Close no process, namespace, mount or cgroup of it is left.
func TestRealNodeRunsAPodAndLeavesNothing(t *testing.T) {
	realnode.Require(t)
	before := hostView(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	t0 := time.Now()
	c, err := realnode.Start(ctx, realnode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("control plane and a Ready node in %v", time.Since(t0).Round(100*time.Millisecond))
	closed := false
	defer func() {
		if !closed {
			_ = c.Close()
		}
	}()
	ns := c.Kube.NewNamespace(t)
	c.Kube.Apply(t, ns, `apiVersion: v1
kind: Pod
metadata: {name: p, labels: {app: p}}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: c
    image: `+realnode.BusyboxImage+`
    imagePullPolicy: Never
    command: ["sleep", "3600"]
    volumeMounts: [{name: scratch, mountPath: /scratch}]
  volumes: [{name: scratch, emptyDir: {}}]
`)
	c.Kube.ReadyPods(t, ns, "app=p", 1)
	mi := c.Kube.Kubectl(t, "-n", ns, "exec", "p", "--", "cat", "/proc/self/mountinfo")
	if !strings.Contains(mi, " / / ") || !strings.Contains(mi, " - overlay ") || !strings.Contains(mi, " /scratch ") {
		t.Fatalf("the container's mountinfo has no overlay root or /scratch:\n%s", mi)
	}
	if n := len(c.Nodes[0].PodPids()); n == 0 {
		t.Fatal("no process in the node's cgroups while a pod runs")
	}
	sameHost(t, "while a pod runs", before, hostView(t, c.Dir))
	closed = true
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if left := c.Leftovers(); len(left) > 0 {
		t.Fatalf("left behind after Close: %v", left)
	}
	if _, err := os.Stat(c.Dir); !os.IsNotExist(err) {
		t.Errorf("the run directory %s is still there (%v)", c.Dir, err)
	}
	sameHost(t, "after Close", before, hostView(t, c.Dir))
}
