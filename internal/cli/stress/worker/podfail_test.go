package worker_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/stress/workers"
)

// failReadyTimeout is the --worker-ready-timeout of the fail-fast tests: longer than the runner
// lets osctl live (4 minutes), so a run that waited for it, rather than failing fast, fails the
// test.
const failReadyTimeout = "10m"

// noKubeletLabel labels, and taints, the node of fakeKubelet.
const noKubeletLabel = "osctl.io/no-kubelet"

// fakeKubelet is a node no kubelet (and no kwok) runs, which only the worker pods of this test's
// namespace tolerate: the test is its kubelet, and reports status for the pods bound to it as a
// kubelet would (status, below), and deletes them when they are deleted gracefully (a kubelet
// confirms the deletion once the containers are gone). It returns the node selector and the
// toleration for the run, and the time status was first reported.
func (w *world) fakeKubelet(t *testing.T, status func(*corev1.Pod)) (flags []string, first func() time.Time) {
	t.Helper()
	cs := w.k.Clients.Clientset
	ctx := context.Background()
	name := "no-kubelet-" + w.ns
	node := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", noKubeletLabel: w.ns}},
		Spec:       corev1.NodeSpec{Taints: []corev1.Taint{{Key: noKubeletLabel, Value: w.ns, Effect: corev1.TaintEffectNoSchedule}}},
	}
	if _, err := cs.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.CoreV1().Nodes().Delete(context.Background(), name, metav1.DeleteOptions{}) })
	res := corev1.ResourceList{corev1.ResourcePods: resource.MustParse("110"), corev1.ResourceCPU: resource.MustParse("8"), corev1.ResourceMemory: resource.MustParse("16Gi")}
	n := &corev1.Node{}
	var err error
	n.Status = corev1.NodeStatus{Capacity: res, Allocatable: res, Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue,
		Reason: "KubeletReady", LastHeartbeatTime: metav1.Now(), LastTransitionTime: metav1.Now()}}}
	testenv.WaitFor(t, 30*time.Second, "the node's status set", func() (bool, error) {
		st := n.Status
		if n, err = cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{}); err != nil {
			return false, err
		}
		n.Status = st
		_, err := cs.CoreV1().Nodes().UpdateStatus(ctx, n, metav1.UpdateOptions{})
		return err == nil, nil // a conflict (the node controller touched it): again
	})
	var mu sync.Mutex
	var at time.Time
	reported := map[string]bool{}
	pods := cs.CoreV1().Pods(w.ns)
	w.k.WatchPods(t, w.ns, func(ctx context.Context, pod string) error {
		p, err := pods.Get(ctx, pod, metav1.GetOptions{})
		if err != nil || p.Spec.NodeName != name {
			return nil
		}
		if p.DeletionTimestamp != nil {
			zero := int64(0)
			return pods.Delete(ctx, pod, metav1.DeleteOptions{GracePeriodSeconds: &zero})
		}
		mu.Lock()
		done := reported[string(p.UID)]
		mu.Unlock()
		if done {
			return nil
		}
		status(p)
		if _, err := pods.UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
			return err
		}
		mu.Lock()
		reported[string(p.UID)] = true
		if at.IsZero() {
			at = time.Now()
		}
		mu.Unlock()
		return nil
	})
	return []string{"--worker-node-selector", noKubeletLabel + "=" + w.ns, "--worker-toleration", noKubeletLabel + "=" + w.ns + ":NoSchedule"},
		func() time.Time { mu.Lock(); defer mu.Unlock(); return at }
}

// imagePullBackOff is what a kubelet reports for a pod whose image it cannot pull.
func imagePullBackOff(p *corev1.Pod) {
	now := metav1.Now()
	p.Status.Phase = corev1.PodPending
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now},
		{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "ContainersNotReady", LastTransitionTime: now}}
	p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "worker", Image: p.Spec.Containers[0].Image,
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff",
			Message: `Back-off pulling image "` + p.Spec.Containers[0].Image + `": ErrImagePull: failed to resolve reference`}}}}
}

// crashed is what a kubelet reports for a pod whose container exited with an error (the pods
// restart never: the pod failed).
func crashed(p *corev1.Pod) {
	now := metav1.Now()
	p.Status.Phase = corev1.PodFailed
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now}}
	p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "worker", Image: p.Spec.Containers[0].Image,
		State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Error", ExitCode: 2, StartedAt: now, FinishedAt: now}}}}
}

// failsFast runs a two-worker http run with a long --worker-ready-timeout and extra flags, and
// checks that it exits 2 at once (not by the timeout) with one line naming the pod and wants,
// that nothing was sent, and that no Job, pod, Service or Secret of the run is left. It returns
// when the run ended.
func (w *world) failsFast(t *testing.T, extra []string, wants ...string) time.Time {
	t.Helper()
	srv := newCounter(t)
	args := append(append([]string{"stress", "--profile", "http", "--target", srv.URL + "/", "--requests", "10"}, w.workerArgs(2)...),
		append([]string{"--worker-ready-timeout", failReadyTimeout}, extra...)...)
	began := time.Now()
	r := osctl(t, args...)
	ended := time.Now()
	t.Logf("exit %d after %s:\n%s", r.Code, ended.Sub(began).Round(100*time.Millisecond), r.Output)
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2", r.Code)
	}
	var line string
	for _, l := range strings.Split(r.Output, "\n") {
		if strings.Contains(l, "worker pod "+workers.JobName("")) {
			line = l
		}
	}
	if line == "" || strings.Contains(r.Output, "were not ready within") {
		t.Fatalf("no line naming the failed worker pod, or the run waited for its timeout:\n%s", r.Output)
	}
	for _, want := range wants {
		if !strings.Contains(line, want) {
			t.Errorf("the error line lacks %q: %s", want, line)
		}
	}
	if !strings.Contains(r.Output, "deleted Job "+w.ns+"/") {
		t.Errorf("the output does not say the Job was deleted:\n%s", r.Output)
	}
	if srv.n.Load() != 0 {
		t.Errorf("%d requests were sent", srv.n.Load())
	}
	w.noJobs(t)
	w.nothingOfOsctl(t)
	return ended
}

// nothingOfOsctl checks that no pod, Service or Secret osctl made is left in the namespace.
func (w *world) nothingOfOsctl(t *testing.T) {
	t.Helper()
	cs := w.k.Clients.Clientset
	sel := metav1.ListOptions{LabelSelector: "app.kubernetes.io/managed-by=osctl"}
	ctx := context.Background()
	pods, err := cs.CoreV1().Pods(w.ns).List(ctx, sel)
	if err != nil {
		t.Fatal(err)
	}
	svcs, err := cs.CoreV1().Services(w.ns).List(ctx, sel)
	if err != nil {
		t.Fatal(err)
	}
	secrets, err := cs.CoreV1().Secrets(w.ns).List(ctx, sel)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods.Items {
		t.Errorf("pod %s is left (deleting: %v)", p.Name, p.DeletionTimestamp != nil)
	}
	for _, s := range svcs.Items {
		t.Errorf("Service %s is left", s.Name)
	}
	for _, s := range secrets.Items {
		t.Errorf("Secret %s is left", s.Name)
	}
}

// TestWorkerPodImagePullFailsFast: the kubelet reports ImagePullBackOff for the worker pods; the
// run does not wait out --worker-ready-timeout (10m) but exits 2 with one line naming the pod,
// the reason, the kubelet's message and --worker-image, and leaves nothing behind.
func TestWorkerPodImagePullFailsFast(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	flags, failedAt := w.fakeKubelet(t, imagePullBackOff)
	ended := w.failsFast(t, flags, ": ImagePullBackOff: Back-off pulling image", "pass --worker-image", "--worker-pull-secret")
	t.Logf("the error came %s after the kubelet reported ImagePullBackOff", ended.Sub(failedAt()).Round(100*time.Millisecond))
}

// TestWorkerPodCrashFailsFast: the worker pods' container exits with an error (the pod fails);
// the run exits 2 at once naming the pod and its exit, and leaves nothing behind.
func TestWorkerPodCrashFailsFast(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	flags, failedAt := w.fakeKubelet(t, crashed)
	ended := w.failsFast(t, flags, ": Error: container worker exited 2", "the worker's command failed in its image: check that --worker-image holds")
	t.Logf("the error came %s after the kubelet reported the container's exit", ended.Sub(failedAt()).Round(100*time.Millisecond))
}

// TestWorkerPodUnschedulableFailsFast: the scheduler refuses the worker pods (no node has the
// label); after the grace (k8s.UnschedulableGrace) the run exits 2 naming the pod, the
// scheduler's message and the flags to check, not after --worker-ready-timeout.
func TestWorkerPodUnschedulableFailsFast(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	began := time.Now()
	ended := w.failsFast(t, []string{"--worker-node-selector", "pool=nowhere"}, ": Unschedulable: for ", "didn't match Pod's node affinity/selector", "--worker-node-selector")
	t.Logf("the run ended %s after it began", ended.Sub(began).Round(100*time.Millisecond))
}
