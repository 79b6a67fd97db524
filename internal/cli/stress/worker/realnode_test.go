//go:build linux

package worker_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
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
	all := []string{"stress", "-o", "json", "--kubeconfig", w.k.Kubeconfig, "-n", w.ns, "--workers", fmt.Sprint(k),
		"--worker-image", realnode.OsctlImage, "--worker-ready-timeout", "90s"}
	if slices.Contains(args, "--profile") { // the http profile: GET the sandbox's /status
		var st []string
		for _, u := range w.targets {
			st = append(st, u+"/status")
		}
		all = append(all, "--target", strings.Join(st, ","))
	} else {
		all = append(all, "--target", strings.Join(w.targets, ","), "--state-dir", w.sb.StateDir)
	}
	all = append(all, args...)
	return startRun(t, all, started)
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

// fault is one way to lose worker 1 mid-run on a real node, called once the load began: it does
// it (or waits for it), and returns when it happened and what else to do once the loss was
// reported (nil: nothing).
type fault func(t *testing.T, w *realWorld, pod corev1.Pod, nsPid int) (at time.Time, after func())

// faultRun runs two workers for a bounded load (10 s) against a redlock sandbox; once the load is
// under way it applies the fault to worker 1. The coordinator must say worker 1 was lost within
// 30 s of the fault, and the run must end within 30 s of it, with exit 2, the report naming the
// lost worker; the Job and its pods are gone afterwards. It returns the run.
// faultOpts are a fault's flags (after the defaults), the reason the lost workers must give, which
// workers must be lost, and whether the run must end within 30 s of the fault (a worker OOM-killed
// at the start of the load leaves the other one its whole load).
type faultOpts struct {
	extra     []string
	reason    string
	lost      []int
	endWithin bool
}

func faultRun(t *testing.T, w *realWorld, f fault, o faultOpts) run {
	t.Helper()
	hist := filepath.Join(t.TempDir(), "history.jsonl")
	var kill, reported time.Time
	args := []string{"--duration", "10s", "--concurrency", "10", "--analyses", "2", "--background-wait", "0", "--settle-timeout", "5s", "--history", hist}
	r := w.stress(t, 2, append(args, o.extra...),
		func(_ *exec.Cmd, errb *testenv.LockedBuffer) {
			pods := w.workerPods(t, errb, 2)
			testenv.Eventually(t, 60*time.Second, "the load to begin", func() bool { return strings.Contains(errb.String(), "load workers\n") }, errb.String)
			var pod corev1.Pod
			nsPid := 0
			for _, m := range readyRe.FindAllStringSubmatch(errb.String(), -1) {
				for _, p := range pods {
					if m[1] == "1" && m[2] == p.Name {
						pod = p
						_, _ = fmt.Sscan(m[4], &nsPid)
					}
				}
			}
			if nsPid == 0 {
				t.Fatalf("no pod and pid for worker 1:\n%s", errb.String())
			}
			var after func()
			kill, after = f(t, w, pod, nsPid)
			testenv.Eventually(t, 30*time.Second, "the coordinator to say worker 1 was lost", func() bool {
				return strings.Contains(errb.String(), "worker 1 (pod "+pod.Name+") was lost during the load: ")
			}, errb.String)
			reported = time.Now()
			if after != nil {
				after()
			}
		})
	exit := time.Now()
	t.Logf("exit %d; worker 1's loss reported %s after the fault, the run ended %s after it; %s\n%s", r.Code,
		reported.Sub(kill).Round(time.Millisecond), exit.Sub(kill).Round(time.Millisecond), r.rep.Headline(), r.Stderr)
	if r.Code != 2 {
		var fs []string
		for _, f := range r.rep.Findings {
			fs = append(fs, fmt.Sprintf("%s %s %v: expected %s, got %s; requests %+v", f.Kind, f.Object, f.Paths, f.Expected, f.Got, f.Requests))
		}
		t.Fatalf("exit %d (verdict %s, partial %v, findings %v: %s), want 2\n%s", r.Code, r.rep.Verdict, r.rep.Partial, r.rep.FindingCounts, strings.Join(fs, "; "), r.Stderr)
	}
	if d := exit.Sub(kill); o.endWithin && d > 30*time.Second {
		t.Errorf("the run ended %s after the fault, want within 30s", d)
	}
	if len(r.rep.Workers) != 2 {
		t.Fatalf("workers in the report: %+v", r.rep.Workers)
	}
	for _, i := range o.lost {
		if !r.rep.Workers[i].Lost || !strings.Contains(r.rep.StopReason, fmt.Sprintf("worker %d (pod %s)", i, r.rep.Workers[i].Pod)) {
			t.Errorf("worker %d: lost %v; stop reason %q", i, r.rep.Workers[i].Lost, r.rep.StopReason)
		}
		if !strings.Contains(r.rep.Workers[i].Reason, o.reason) {
			t.Errorf("worker %d was lost for %q, want it said: %q", i, r.rep.Workers[i].Reason, o.reason)
		}
	}
	w.nothingLeft(t, r.rep.Run)
	return r
}

// TestWorkerLostOnARealNode: worker 1 is lost mid-run, four ways. Its process, killed inside its
// container (found through /proc on the node, as the image has no shell for an exec of kill); its
// pod deleted; its memory limit exceeded (the kernel's OOM killer); and the node's container
// runtime killed (containerd, by the pid the harness started), which ends both workers' exec
// streams. Each is reported within 30 s with exit 2, naming the lost worker; the run ends within
// 30 s of the fault too, but after an OOM kill, which may leave the other worker its whole load.
// The runtime's loss is tested with the http profile: workers cut off from the coordinator go on
// for a moment (their processes live on, their output goes nowhere), and with the openstudio
// profile the requests they send then, in no history, can leave a zip the judge calls torn.
func TestWorkerLostOnARealNode(t *testing.T) {
	t.Run("process-killed", func(t *testing.T) {
		w := newRealWorld(t, "redlock")
		r := faultRun(t, w, func(t *testing.T, w *realWorld, pod corev1.Pod, nsPid int) (time.Time, func()) {
			time.Sleep(2 * time.Second)
			pid := loadWorkerPid(w.c.Nodes[0], string(pod.UID), nsPid)
			if pid == 0 {
				t.Fatalf("no load worker process of pod %s (pid %d in it) on the node: %+v", pod.Name, nsPid, workerProcs(w.c.Nodes[0]))
			}
			at := time.Now()
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
				t.Fatalf("kill %d: %v", pid, err)
			}
			return at, nil
		}, faultOpts{reason: "exit code 137 (SIGKILL: the kernel's OOM killer", lost: []int{1}, endWithin: true})
		if r.rep.Workers[0].Lost {
			t.Errorf("worker 0 was lost too: %s", r.rep.Workers[0].Reason)
		}
	})
	t.Run("pod-deleted", func(t *testing.T) {
		w := newRealWorld(t, "redlock")
		faultRun(t, w, func(t *testing.T, w *realWorld, pod corev1.Pod, _ int) (time.Time, func()) {
			time.Sleep(2 * time.Second)
			at := time.Now()
			w.k.Kubectl(t, "delete", "pod", "-n", w.ns, pod.Name, "--wait=false")
			return at, nil
		}, faultOpts{reason: "its pod is being deleted", lost: []int{1}, endWithin: true})
	})
	t.Run("oom-killed", func(t *testing.T) {
		w := newRealWorld(t, "redlock")
		// 40Mi holds an idle worker (about 6 MB of its own) and a load worker as it starts, not a
		// load worker at concurrency 1000. At concurrency 100 (about 35 MB of its own) the kill
		// depended on whether the binary's pages were charged to this container's cgroup or to the
		// other worker's: one CI run ended its load without an OOM kill.
		faultRun(t, w, func(t *testing.T, w *realWorld, pod corev1.Pod, nsPid int) (time.Time, func()) {
			n := w.c.Nodes[0]
			pid := loadWorkerPid(n, string(pod.UID), nsPid)
			if pid == 0 {
				t.Fatalf("no load worker process of pod %s (pid %d in it) on the node: %+v", pod.Name, nsPid, workerProcs(n))
			}
			cg := memoryCgroup(pid)
			testenv.Eventually(t, 60*time.Second, "worker 1's load worker to be OOM-killed", func() bool {
				_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
				return err != nil
			}, func() string { return fmt.Sprint(workerProcs(n)) })
			at := time.Now()
			if k := oomKills(cg); k < 1 {
				t.Errorf("worker 1's load worker ended, but its container's memory cgroup %s counts no OOM kill", cg)
			}
			return at, nil
		}, faultOpts{extra: []string{"--worker-resources", "memory=40Mi", "--concurrency", "1000", "--requests", "100000", "--duration", "20s"},
			reason: "exit code 137 (SIGKILL: the kernel's OOM killer", lost: []int{1}})
	})
	t.Run("containerd-killed", func(t *testing.T) {
		w := newRealWorld(t, "redlock")
		n := w.c.Nodes[0]
		r := faultRun(t, w, func(t *testing.T, w *realWorld, _ corev1.Pod, _ int) (time.Time, func()) {
			time.Sleep(2 * time.Second)
			at := time.Now()
			pid := n.KillContainerd()
			t.Logf("killed containerd (pid %d)", pid)
			restarted := false
			restart := func() {
				if !restarted {
					restarted = true
					if err := n.RestartContainerd(); err != nil {
						t.Error(err)
					}
				}
			}
			t.Cleanup(restart) // the shared node keeps a runtime for the next tests, whatever fails here
			return at, restart
		}, faultOpts{extra: []string{"--profile", "http"}, reason: "the node's container runtime or kubelet", lost: []int{0, 1}, endWithin: true})
		for _, i := range []int{0, 1} {
			if !r.rep.Workers[i].Unstopped {
				t.Errorf("worker %d, lost with no exit status while its pod was there, is not marked unstopped", i)
			}
		}
	})
}
