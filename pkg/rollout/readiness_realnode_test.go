//go:build linux

package rollout_test

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/realnode"
	"github.com/osctl/osctl/internal/testenv/rollouttest"
	"github.com/osctl/osctl/pkg/rollout"
)

// probedWeb is a Deployment web of real pods (busybox httpd on 8080) with a real readiness
// probe (GET /healthz every second) and its HPA (range 1-1, a CPU metric no one serves: the
// rollout's pinned range alone moves the replicas). A pod serves /healthz only when the share
// (a hostPath directory of the test) holds no file "broken" as it starts: a pod started after
// the test writes it runs, but its probe never passes (404).
func probedWeb(t *testing.T, c *realnode.Cluster) (w *rollouttest.Workload, share string) {
	t.Helper()
	share = t.TempDir()
	ns := c.Kube.NewNamespace(t)
	c.Kube.Apply(t, ns, testenv.WebDeployment(1, realnode.ProbedWebPodSpec(share, "")))
	c.Kube.Apply(t, ns, `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 1
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`)
	w = &rollouttest.Workload{K: c.Kube, NS: ns}
	w.WaitSettled(t, 1, 90*time.Second)
	return w, share
}

// realRunner is a Runner of w's HPA with the pods gate (restarts, crash loops, Ready) on w's
// real pods.
func realRunner(t *testing.T, w *rollouttest.Workload, holder string) (*rollout.Runner, []rollout.Gate) {
	t.Helper()
	r := runner(w, holder)
	g, err := rollout.NewPodsGate(context.Background(), w.K.Clients.Clientset, w.NS, "app=web")
	if err != nil {
		t.Fatal(err)
	}
	return r, []rollout.Gate{g}
}

// readyPods counts w's pods whose Ready condition the kubelet set from the probe.
func readyPods(t *testing.T, w *rollouttest.Workload) (ready, live int) {
	t.Helper()
	l, err := w.K.Clients.Clientset.CoreV1().Pods(w.NS).List(context.Background(), metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range l.Items {
		if p.DeletionTimestamp != nil {
			continue
		}
		live++
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
				ready++
			}
		}
	}
	return ready, live
}

// TestRolloutOnRealReadinessProbes: the rollout steps the HPA over real pods whose readiness is
// a real HTTP probe the kubelet runs. Pods that pass it let the rollout reach 3 replicas and its
// final range; a step whose new pod runs but never passes its probe times out and rolls back to
// the original range, the Deployment back at its one ready pod.
func TestRolloutOnRealReadinessProbes(t *testing.T) {
	c := realnode.Shared(t)
	t.Run("passing", func(t *testing.T) {
		w, _ := probedWeb(t, c)
		r, gates := realRunner(t, w, "real-pass")
		out, err := r.Run(context.Background(), mustInspect(t, r), plan([]int32{1, 2, 3}, &rollout.Range{Min: 2, Max: 4}), gates)
		if err != nil {
			t.Fatal(err)
		}
		if out.Phase != rollout.PhaseCompleted {
			t.Fatalf("outcome %s (%s), want completed", out.Phase, out.Reason)
		}
		if min, max, _ := w.HPA(t); min != 2 || max != 4 {
			t.Fatalf("HPA %d-%d, want 2-4", min, max)
		}
		w.WaitSettled(t, 3, 10*time.Second)
		if ready, live := readyPods(t, w); ready != 3 || live != 3 {
			t.Fatalf("%d of %d pods Ready, want 3 of 3", ready, live)
		}
		j := mustInspect(t, r).Journal
		if j.LastGood != 3 || len(j.Gates) != 1 || j.Gates[0].Status != "pass" || !strings.Contains(j.Gates[0].Message, "3 pods ready") {
			t.Fatalf("journal: last good %d, gates %+v; want 3 and pods pass on 3 pods", j.LastGood, j.Gates)
		}
	})
	t.Run("never-ready", func(t *testing.T) {
		w, share := probedWeb(t, c)
		first := podNames(t, w)
		realnode.BreakProbes(t, share)
		r, gates := realRunner(t, w, "real-fail")
		p := plan([]int32{1, 2}, nil)
		p.StepTimeout.Duration = 20 * time.Second
		out, err := r.Run(context.Background(), mustInspect(t, r), p, gates)
		if err != nil {
			t.Fatal(err)
		}
		var te *rollout.TimeoutError
		if out.Phase != rollout.PhaseRolledBack || !errors.As(out.Err, &te) || !strings.Contains(out.Reason, "step 2 (2 replicas)") {
			t.Fatalf("outcome %s: %v; want rolled back after step 2 timed out", out.Phase, out.Err)
		}
		if te.Last.Ready != 1 || te.Last.Current != 2 {
			t.Errorf("last state %s, want 2 current and 1 ready", te.Last)
		}
		// The timeout names the pod that never became Ready, and the probe it did not pass.
		if len(te.NotReady) != 1 || !strings.HasPrefix(te.NotReady[0], "pod web-") || strings.Contains(te.NotReady[0], first[0]) ||
			!strings.Contains(te.NotReady[0], "container web running ") || !strings.HasSuffix(te.NotReady[0], "its readiness probe GET :8080/healthz has not passed)") {
			t.Errorf("not-Ready pods %q, want the new pod, running, its probe GET :8080/healthz not passed", te.NotReady)
		}
		if !strings.Contains(out.Reason, "not Ready: pod web-") {
			t.Errorf("reason %q does not name the pod", out.Reason)
		}
		if min, max, _ := w.HPA(t); min != 1 || max != 1 {
			t.Fatalf("HPA %d-%d after the rollback, want 1-1", min, max)
		}
		w.WaitSettled(t, 1, 30*time.Second)
		testenv.WaitFor(t, 30*time.Second, "the never-ready pod to go", func() (bool, error) {
			_, live := readyPods(t, w)
			return live == 1, nil
		})
		if now := podNames(t, w); len(now) != 1 || now[0] != first[0] {
			t.Errorf("pods after the rollback %v, want the first one %v (the never-ready one removed)", now, first)
		}
		j := mustInspect(t, r).Journal
		if j.Phase != rollout.PhaseRolledBack || j.LastGood != 1 {
			t.Fatalf("journal phase %s last good %d, want rolled-back at 1", j.Phase, j.LastGood)
		}
	})
}

// TestRolloutPodsGateSeesARealProbeFail: at a step of 2 replicas a pod that passed its probe starts failing it
// (its /healthz removed through a real exec); the kubelet turns it not Ready, the pods gate fails
// the hold on it, and the rollout rolls back to 1-1 keeping a Ready pod.
func TestRolloutPodsGateSeesARealProbeFail(t *testing.T) {
	c := realnode.Shared(t)
	w, _ := probedWeb(t, c)
	r, gates := realRunner(t, w, "real-sick")
	sick := make(chan string, 1)
	r.Observer = func(p rollout.Progress) {
		if p.Kind != rollout.ProgressReady || p.Step != 1 {
			return
		}
		go func() { // not the test's goroutine: no t.Fatal here
			l, err := w.K.Clients.Clientset.CoreV1().Pods(w.NS).List(context.Background(), metav1.ListOptions{LabelSelector: "app=web"})
			pod := ""
			if err == nil {
				for _, p := range l.Items {
					if p.DeletionTimestamp == nil {
						pod = p.Name
					}
				}
			}
			if pod == "" {
				t.Errorf("no live pod at step 1 to make fail its probe (listing: %v)", err)
				sick <- ""
				return
			}
			out, err := exec.Command(filepath.Join(c.Kube.BinDir, "kubectl"), "--kubeconfig="+c.Kube.Kubeconfig, "-n", w.NS,
				"exec", pod, "--", "rm", "/www/healthz").CombinedOutput()
			if err != nil {
				t.Errorf("exec rm /www/healthz in %s: %v: %s", pod, err, out)
			}
			sick <- pod
		}()
	}
	p := plan([]int32{2}, nil)
	p.Hold.Duration = 30 * time.Second // the step ends at the gate's failure, well before
	out, err := r.Run(context.Background(), mustInspect(t, r), p, gates)
	if err != nil {
		t.Fatal(err)
	}
	var pod string
	select {
	case pod = <-sick:
	case <-time.After(time.Minute):
		t.Fatalf("step 1 never became ready, so no pod was made to fail its probe: outcome %s: %v", out.Phase, out.Err)
	}
	var ge *rollout.GateError
	if out.Phase != rollout.PhaseRolledBack || !errors.As(out.Err, &ge) || ge.Step != 1 || !strings.Contains(out.Reason, "pod "+pod+": not Ready") {
		t.Fatalf("outcome %s: %v; want rolled back by the pods gate at step 1 (2 replicas) naming pod %s", out.Phase, out.Err, pod)
	}
	if min, max, _ := w.HPA(t); min != 1 || max != 1 {
		t.Fatalf("HPA %d-%d after the rollback, want 1-1", min, max)
	}
	w.WaitSettled(t, 1, 30*time.Second)
	testenv.WaitFor(t, 30*time.Second, "one Ready pod left", func() (bool, error) {
		ready, live := readyPods(t, w)
		return ready == 1 && live == 1, nil
	})
}

func podNames(t *testing.T, w *rollouttest.Workload) []string {
	t.Helper()
	l, err := w.K.Clients.Clientset.CoreV1().Pods(w.NS).List(context.Background(), metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range l.Items {
		if p.DeletionTimestamp == nil {
			out = append(out, p.Name)
		}
	}
	return out
}
