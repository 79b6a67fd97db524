package rollout

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/k8s"
)

// maxNamedPods is how many not-Ready pods a timeout names.
const maxNamedPods = 3

// notReadyPods says which of the Deployment's pods are not Ready and why, as far as the pods'
// status tells (a container waiting, or running with a readiness probe that has not passed),
// for a step that timed out. It returns nil when the pods cannot be read: the timeout is
// reported all the same.
func notReadyPods(ctx context.Context, r *Runner, deployment string, now time.Time) []string {
	d, err := r.Client.AppsV1().Deployments(r.Namespace).Get(ctx, deployment, metav1.GetOptions{})
	if err != nil || d.Spec.Selector == nil {
		return nil
	}
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil
	}
	pods, err := r.Client.CoreV1().Pods(r.Namespace).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return nil
	}
	sort.Slice(pods.Items, func(i, j int) bool { return pods.Items[i].Name < pods.Items[j].Name })
	var out []string
	for i := range pods.Items {
		p := &pods.Items[i]
		if p.DeletionTimestamp != nil || k8s.Ready(p) {
			continue
		}
		out = append(out, "pod "+p.Name+" ("+whyNotReady(p, now)+")")
	}
	if len(out) > maxNamedPods {
		out = append(out[:maxNamedPods], fmt.Sprintf("and %d more", len(out)-maxNamedPods))
	}
	return out
}

// whyNotReady describes the first container that is not ready: waiting (with the kubelet's
// reason), terminated, or running for how long with which readiness probe not passing.
func whyNotReady(p *corev1.Pod, now time.Time) string {
	if p.Spec.NodeName == "" {
		return "not scheduled"
	}
	probes := map[string]*corev1.Probe{}
	for _, c := range p.Spec.Containers {
		probes[c.Name] = c.ReadinessProbe
	}
	for _, cs := range p.Status.ContainerStatuses {
		if cs.Ready {
			continue
		}
		switch st := cs.State; {
		case st.Waiting != nil:
			return fmt.Sprintf("container %s waiting: %s", cs.Name, st.Waiting.Reason)
		case st.Terminated != nil:
			return fmt.Sprintf("container %s terminated: %s, exit %d", cs.Name, st.Terminated.Reason, st.Terminated.ExitCode)
		case st.Running != nil:
			s := fmt.Sprintf("container %s running %s", cs.Name, now.Sub(st.Running.StartedAt.Time).Round(time.Second))
			if pr := probes[cs.Name]; pr != nil {
				return s + ", its readiness probe " + probeText(pr) + " has not passed"
			}
			return s + ", not ready"
		}
	}
	return "phase " + string(p.Status.Phase) + ", not Ready"
}

// probeText names a probe's action: GET :PORT/PATH, exec PROGRAM or tcp :PORT.
func probeText(pr *corev1.Probe) string {
	switch h := pr.ProbeHandler; {
	case h.HTTPGet != nil:
		path, _, _ := strings.Cut(h.HTTPGet.Path, "?") // a query may carry a token
		return fmt.Sprintf("GET :%s%s", h.HTTPGet.Port.String(), path)
	case h.Exec != nil && len(h.Exec.Command) > 0:
		return "exec " + h.Exec.Command[0] // its arguments may carry a secret: the journal is readable by anyone who can read the HPA
	case h.TCPSocket != nil:
		return "tcp :" + h.TCPSocket.Port.String()
	case h.GRPC != nil:
		return fmt.Sprintf("grpc :%d", h.GRPC.Port)
	}
	return "(no action)"
}
