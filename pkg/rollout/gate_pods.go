package rollout

import (
	"context"
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/preflight"
)

// PodsGate fails when a pod of the workload restarted since the rollout started, is waiting in a
// crash loop (or cannot pull its image), or is not Ready.
type PodsGate struct {
	Client    k8s.Interface
	Namespace string
	Selector  string // the Deployment's label selector
	baseline  map[string]int32
}

// NewPodsGate returns a pods gate with the restart counts of the workload's pods now as its
// baseline, so only restarts during the rollout count.
func NewPodsGate(ctx context.Context, c k8s.Interface, ns, selector string) (*PodsGate, error) {
	g := &PodsGate{Client: c, Namespace: ns, Selector: selector, baseline: map[string]int32{}}
	pods, err := c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return nil, fmt.Errorf("listing the workload's pods: %w", err)
	}
	for _, p := range pods.Items {
		for _, cs := range p.Status.ContainerStatuses {
			g.baseline[p.Name+"/"+cs.Name] = cs.RestartCount
		}
	}
	return g, nil
}

// Name implements Gate.
func (g *PodsGate) Name() string { return "pods" }

// Check implements Gate.
func (g *PodsGate) Check(ctx context.Context) GateResult {
	pods, err := g.Client.CoreV1().Pods(g.Namespace).List(ctx, metav1.ListOptions{LabelSelector: g.Selector})
	if err != nil {
		return GateResult{Status: preflight.Fail, Message: "could not list pods: " + err.Error()}
	}
	var rs []preflight.Result
	live := 0
	sort.Slice(pods.Items, func(i, j int) bool { return pods.Items[i].Name < pods.Items[j].Name })
	for i := range pods.Items {
		p := &pods.Items[i]
		if p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodSucceeded {
			continue
		}
		live++
		rs = append(rs, g.checkPod(p)...)
	}
	res := summarize(GateResult{Details: rs}, rs)
	if res.Status == preflight.Pass {
		res.Message = fmt.Sprintf("%d pods ready, no restarts or crash loops", live)
	}
	return res
}

func (g *PodsGate) checkPod(p *corev1.Pod) []preflight.Result {
	subj := "pod " + p.Name
	var rs []preflight.Result
	if p.Status.Phase == corev1.PodFailed {
		rs = append(rs, preflight.Result{ID: "rollout.pods.failed", Status: preflight.Fail, Subject: subj, Message: "pod failed: " + p.Status.Reason})
	}
	for _, cs := range p.Status.ContainerStatuses {
		base := g.baseline[p.Name+"/"+cs.Name]
		if cs.RestartCount > base {
			rs = append(rs, preflight.Result{ID: "rollout.pods.restarts", Status: preflight.Fail, Subject: subj,
				Message: fmt.Sprintf("container %s restarted %d times during the rollout", cs.Name, cs.RestartCount-base)})
		}
		if w := cs.State.Waiting; w != nil && k8s.FatalWaiting(w.Reason) {
			rs = append(rs, preflight.Result{ID: "rollout.pods.crashloop", Status: preflight.Fail, Subject: subj,
				Message: fmt.Sprintf("container %s is in %s: %s", cs.Name, w.Reason, strings.TrimSpace(w.Message))})
		}
	}
	ready := false
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
			ready = true
		}
	}
	if !ready {
		rs = append(rs, preflight.Result{ID: "rollout.pods.ready", Status: preflight.Fail, Subject: subj, Message: "not Ready"})
	}
	if len(rs) == 0 {
		rs = append(rs, preflight.Result{ID: "rollout.pods.ready", Status: preflight.Pass, Subject: subj, Message: "Ready"})
	}
	return rs
}
