package rollout

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// whyNotReady names the first unready container's state and, when it runs, its readiness probe,
// without an exec probe's arguments or an HTTP probe's query (either may carry a secret).
func TestWhyNotReady(t *testing.T) {
	now := time.Date(2026, 12, 7, 3, 0, 0, 0, time.UTC)
	pod := func(probe *corev1.Probe, st corev1.ContainerState) *corev1.Pod {
		return &corev1.Pod{Spec: corev1.PodSpec{NodeName: "n1", Containers: []corev1.Container{{Name: "side"}, {Name: "web", ReadinessProbe: probe}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{
				{Name: "side", Ready: true}, {Name: "web", State: st}}}}
	}
	running := corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(now.Add(-19 * time.Second))}}
	for _, tc := range []struct {
		p    *corev1.Pod
		want string
	}{
		{pod(&corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz?token=s3cret", Port: intstr.FromInt32(8080)}}}, running),
			"container web running 19s, its readiness probe GET :8080/healthz has not passed"},
		{pod(&corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"check", "--password=s3cret"}}}}, running),
			"container web running 19s, its readiness probe exec check has not passed"},
		{pod(nil, running), "container web running 19s, not ready"},
		{pod(nil, corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}), "container web waiting: CrashLoopBackOff"},
		{pod(nil, corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "OOMKilled", ExitCode: 137}}), "container web terminated: OOMKilled, exit 137"},
		{&corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodPending}}, "not scheduled"},
	} {
		if got := whyNotReady(tc.p, now); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
