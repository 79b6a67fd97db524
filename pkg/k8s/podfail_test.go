package k8s

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func waiting(reason, msg string) corev1.PodStatus {
	return corev1.PodStatus{Phase: corev1.PodPending, ContainerStatuses: []corev1.ContainerStatus{{Name: "worker",
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: msg}}}}}
}

func unschedulable() corev1.PodStatus {
	return corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse,
		Reason: corev1.PodReasonUnschedulable, Message: "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector."}}}
}

// TestPodFailure: the kubelet's and the scheduler's words for a pod that will not become ready by
// itself are failures, each with its reason and message on one line; a pod on its way (pulling,
// creating, running, just unschedulable, being deleted) is not.
func TestPodFailure(t *testing.T) {
	now := time.Now()
	terminated := corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{{Name: "worker",
		State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Error", ExitCode: 127, Message: "osctl:\nnot found"}}}}}
	cases := []struct {
		name   string
		status corev1.PodStatus
		since  time.Time
		want   string // "" : no failure
	}{
		{"image pull back-off", waiting("ImagePullBackOff", `Back-off pulling image "registry.invalid/x"`), time.Time{}, `pod p: ImagePullBackOff: Back-off pulling image "registry.invalid/x"`},
		{"image pull error", waiting("ErrImagePull", "not found"), time.Time{}, "pod p: ErrImagePull: not found"},
		{"crash loop", waiting("CrashLoopBackOff", "back-off 10s restarting failed container"), time.Time{}, "pod p: CrashLoopBackOff: back-off 10s"},
		{"config error", waiting("CreateContainerConfigError", `secret "x" not found`), time.Time{}, "pod p: CreateContainerConfigError: secret"},
		{"exited with an error", terminated, time.Time{}, "pod p: Error: container worker exited 127: osctl: not found"},
		{"failed", corev1.PodStatus{Phase: corev1.PodFailed, Reason: "DeadlineExceeded", Message: "too long"}, time.Time{}, "pod p: DeadlineExceeded: the pod failed: too long"},
		{"succeeded", corev1.PodStatus{Phase: corev1.PodSucceeded}, time.Time{}, "pod p: Completed"},
		{"unschedulable for long", unschedulable(), now.Add(-UnschedulableGrace), "pod p: Unschedulable: for 20s: 0/2 nodes are available"},
		{"unschedulable just now", unschedulable(), now.Add(-time.Second), ""},
		{"unschedulable never seen", unschedulable(), time.Time{}, ""},
		{"creating", waiting("ContainerCreating", ""), time.Time{}, ""},
		{"pulling", corev1.PodStatus{Phase: corev1.PodPending}, time.Time{}, ""},
		{"running", corev1.PodStatus{Phase: corev1.PodRunning}, time.Time{}, ""},
	}
	for _, c := range cases {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Status: c.status}
		got := PodFailure(p, c.since, now)
		switch {
		case c.want == "" && got != nil:
			t.Errorf("%s: %v, want no failure", c.name, got)
		case c.want != "" && (got == nil || !strings.HasPrefix(got.Error(), c.want) || strings.Contains(got.Error(), "\n")):
			t.Errorf("%s: %v, want one line starting %q", c.name, got, c.want)
		}
		p.DeletionTimestamp = &metav1.Time{Time: now}
		if got := PodFailure(p, c.since, now); got != nil {
			t.Errorf("%s, being deleted: %v, want no failure", c.name, got)
		}
	}
}

// TestFailureWatchTimesUnschedulable: a pod is unschedulable from when it was first seen so,
// across lists; once scheduled, its time starts again.
func TestFailureWatchTimesUnschedulable(t *testing.T) {
	var fw failureWatch
	t0 := time.Now()
	p := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", UID: "u"}, Status: unschedulable()}
	if e := fw.check([]corev1.Pod{p}, t0); e != nil {
		t.Fatalf("first seen: %v", e)
	}
	if e := fw.check([]corev1.Pod{p}, t0.Add(UnschedulableGrace)); e == nil || e.Reason != "Unschedulable" {
		t.Fatalf("after the grace: %v, want Unschedulable", e)
	}
	q := p
	q.Status = corev1.PodStatus{Phase: corev1.PodPending}
	fw.check([]corev1.Pod{q}, t0.Add(UnschedulableGrace))
	if e := fw.check([]corev1.Pod{p}, t0.Add(UnschedulableGrace+time.Second)); e != nil {
		t.Fatalf("unschedulable again, anew: %v", e)
	}
}

// TestFailureWatchDue: the wait for the pods' next change ends when the first unschedulable pod's
// grace does (the scheduler may say nothing more), and not at all while none is unschedulable.
func TestFailureWatchDue(t *testing.T) {
	now := time.Now()
	var fw failureWatch
	p := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", UID: "u1"}, Status: unschedulable()}
	q := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "q", UID: "u2"}, Status: unschedulable()}
	if fw.check(nil, now); !fw.due().IsZero() {
		t.Fatalf("due %v with no pod unschedulable", fw.due())
	}
	fw.check([]corev1.Pod{p}, now)
	fw.check([]corev1.Pod{p, q}, now.Add(5*time.Second))
	if got := fw.due(); !got.Equal(now.Add(UnschedulableGrace)) {
		t.Fatalf("due %v, want the first pod's grace end %v", got, now.Add(UnschedulableGrace))
	}
	if e := fw.check([]corev1.Pod{p, q}, fw.due()); e == nil || e.Pod != "p" {
		t.Fatalf("at the due time: %v, want pod p unschedulable", e)
	}
}
