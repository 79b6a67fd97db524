//go:build linux

package worker_test

import (
	"context"
	"fmt"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/realnode"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/stress/workers"
)

// These tests run `osctl stress --workers` on real pods: a real kubelet, containerd and runc run
// the workers' Job from osctl's release image (tools/release, of the binary under test), the
// coordinator (the binary under test, on this machine) talks to each through a real exec stream,
// and the workers send their load to a sandbox on this machine, which the pods reach through the
// node's address (realnode.Cluster.Expose).

// realWorld is one test's namespace on the shared real node, and a sandbox the pods reach.
type realWorld struct {
	*world
	c       *realnode.Cluster
	sb      *sandboxenv.Sandbox
	targets []string // the sandbox's replicas, as the pods reach them
}

func newRealWorld(t *testing.T, locking string) *realWorld {
	t.Helper()
	c := realnode.Shared(t)
	ns := c.Kube.NewNamespace(t)
	c.Kube.Kubectl(t, "label", "namespace", ns, "pod-security.kubernetes.io/enforce=restricted")
	w := &realWorld{world: &world{k: c.Kube, ns: ns, bin: testenv.OsctlBinary(t)}, c: c}
	w.sb = sandboxenv.Start(t, "--replicas", "2", "--locking", locking)
	for _, r := range w.sb.Replicas {
		u, err := url.Parse(r)
		if err != nil {
			t.Fatalf("replica %q: %v", r, err)
		}
		u.Host = c.Expose(t, u.Host)
		w.targets = append(w.targets, u.String())
	}
	return w
}

// stress runs `osctl stress` with K workers from realnode.OsctlImage against the sandbox; started,
// when set, is called with the running command once it is under way.
func (w *realWorld) stress(t *testing.T, k int, args []string, started func(*exec.Cmd, *testenv.LockedBuffer)) run {
	t.Helper()
	all := append([]string{"stress", "-o", "json", "--kubeconfig", w.k.Kubeconfig, "-n", w.ns, "--workers", fmt.Sprint(k),
		"--worker-image", realnode.OsctlImage, "--worker-ready-timeout", "90s",
		"--target", strings.Join(w.targets, ","), "--state-dir", w.sb.StateDir}, args...)
	o := testenv.StartOsctl(t, 4*time.Minute, all...)
	if started != nil {
		started(o.Cmd, o.Stderr)
	}
	r := run{OsctlRun: o.Wait(t)}
	if strings.HasPrefix(strings.TrimSpace(r.Stdout), "{") {
		r.Decode(t, &r.rep)
	}
	return r
}

// workerPods waits until the run's K worker pods run on a real node, and returns them.
func (w *realWorld) workerPods(t *testing.T, errb *testenv.LockedBuffer, k int) []corev1.Pod {
	t.Helper()
	var pods []corev1.Pod
	testenv.Eventually(t, 90*time.Second, "the worker pods to run", func() bool {
		l, err := w.k.Clients.Clientset.CoreV1().Pods(w.ns).List(context.Background(), metav1.ListOptions{LabelSelector: workers.LabelName + "=" + workers.WorkerName})
		if err != nil || len(l.Items) != k {
			return false
		}
		for _, p := range l.Items {
			if p.Status.Phase != corev1.PodRunning || len(p.Status.ContainerStatuses) != 1 || p.Status.ContainerStatuses[0].ContainerID == "" {
				return false
			}
		}
		pods = l.Items
		return true
	}, errb.String)
	return pods
}

// versionOf is what `osctl version` says of bin: "osctl VERSION (...)".
func versionOf(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command(bin, "version").Output()
	f := strings.Fields(string(out))
	if err != nil || len(f) < 2 {
		t.Fatalf("%s version: %v %q", bin, err, out)
	}
	return f[1]
}

var readyRe = regexp.MustCompile(`worker (\d+) \(pod ([^)]+)\) ready: osctl (\S+), pid (\d+)`)

// TestWorkersOnRealPods: two workers in real pods of osctl's release image load a redlock sandbox.
// The version handshake passes (the image's osctl is the binary under test), each worker's exec
// stream carries its load, the merged report is the sum of the workers' and the history's, the
// run is clean and conclusive, and the Job and its pods, and their processes on the node, are gone
// afterwards.
func TestWorkersOnRealPods(t *testing.T) {
	w := newRealWorld(t, "redlock")
	hist := filepath.Join(t.TempDir(), "history.jsonl")
	var pods []corev1.Pod
	t0 := time.Now()
	r := w.stress(t, 2, []string{"--requests", "600", "--concurrency", "30", "--analyses", "4", "--settle-timeout", "20s", "--history", hist},
		func(_ *exec.Cmd, errb *testenv.LockedBuffer) { pods = w.workerPods(t, errb, 2) })
	t.Logf("exit %d in %s, %s\n%s", r.Code, time.Since(t0).Round(time.Millisecond), r.rep.Headline(), r.Stderr)
	if r.Code != 0 || !r.rep.Conclusive || r.rep.Partial {
		t.Fatalf("exit %d verdict %s conclusive %v partial %v reasons %v, want a clean conclusive run\n%s", r.Code, r.rep.Verdict, r.rep.Conclusive, r.rep.Partial, r.rep.Reasons, r.Stderr)
	}
	for _, p := range pods {
		cs := p.Status.ContainerStatuses[0]
		if p.Spec.NodeName != w.c.Nodes[0].Name || cs.Image != realnode.OsctlImage || !strings.HasPrefix(cs.ContainerID, "containerd://") {
			t.Errorf("pod %s: node %q image %q container %q, want a containerd container of %s on %s", p.Name, p.Spec.NodeName, cs.Image, cs.ContainerID, realnode.OsctlImage, w.c.Nodes[0].Name)
		}
	}
	want := versionOf(t, w.bin)
	ready := readyRe.FindAllStringSubmatch(r.Stderr, -1)
	if len(ready) != 2 {
		t.Fatalf("%d workers said ready, want 2:\n%s", len(ready), r.Stderr)
	}
	for _, m := range ready {
		if m[3] != want {
			t.Errorf("worker %s runs osctl %s, the coordinator %s", m[1], m[3], want)
		}
	}
	merged(t, r, 2, readHistory(t, hist))
	w.judgeAgain(t, r, hist, "--state-dir", w.sb.StateDir)
	w.nothingLeft(t, r.rep.Run)
	testenv.Eventually(t, 30*time.Second, "the workers' processes to leave the node", func() bool { return len(workerProcs(w.c.Nodes[0])) == 0 },
		func() string { return fmt.Sprint(workerProcs(w.c.Nodes[0])) })
}
