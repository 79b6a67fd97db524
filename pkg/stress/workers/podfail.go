package workers

import (
	"errors"
	"fmt"
	"strings"

	"github.com/osctl/osctl/pkg/k8s"
)

// PodFailedError says a worker's pod will not become ready (k8s.PodFailure): the run ends at once,
// without waiting for {Workers.ReadyTimeout}, and names the pod, the reason and what to do.
type PodFailedError struct {
	Namespace string
	*k8s.PodFailedError
}

func (e *PodFailedError) Error() string {
	msg := e.Reason
	if m := strings.TrimRight(e.Message, ". "); m != "" {
		msg += ": " + m
	}
	return fmt.Sprintf("worker pod %s: %s: %s", e.Pod, msg, e.hint())
}

func (e *PodFailedError) Unwrap() error { return e.PodFailedError }

// hint says what to do about the pod's reason. The run deletes the Job and its pods on the way
// out, so the hint does not send one to them.
func (e *PodFailedError) hint() string {
	switch {
	case k8s.ImageReason(e.Reason):
		return "pass {Workers.Image} with an image the nodes can pull that holds this osctl, and {Workers.PullSecrets} when its registry needs one"
	case e.Reason == "Unschedulable":
		return "no node takes the worker pods: check {Workers.NodeSelector}, {Workers.Tolerations} and {Workers.Resources} against the nodes (kubectl describe nodes)"
	case e.Reason == "CreateContainerConfigError" || e.Reason == "CreateContainerError" || e.Reason == "RunContainerError":
		return "the kubelet could not start the worker's container: check {Workers.PullSecrets} and {Workers.Resources}, and the namespace " + e.Namespace + "'s events (kubectl get events -n " + e.Namespace + ")"
	}
	return "the worker's command failed in its image: check that {Workers.Image} holds this version's osctl on its PATH (the pod runs osctl stress worker), and the namespace " + e.Namespace + "'s events (kubectl get events -n " + e.Namespace + ")"
}

// podFailed makes a k8s.PodFailedError a worker's; other errors are returned as they are.
func podFailed(ns string, err error) error {
	var pf *k8s.PodFailedError
	if errors.As(err, &pf) {
		return &PodFailedError{Namespace: ns, PodFailedError: pf}
	}
	return err
}
