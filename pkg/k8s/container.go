package k8s

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DefaultContainerAnnotation names the container that kubectl execs into when none is given.
const DefaultContainerAnnotation = "kubectl.kubernetes.io/default-container"

// DefaultContainer is the container an exec without one goes to, as kubectl picks it: the one
// the pod's default-container annotation names when the pod has it, else the first. A real API
// server refuses an exec without a container into a pod of several.
func DefaultContainer(p *corev1.Pod) string {
	if name := p.Annotations[DefaultContainerAnnotation]; name != "" {
		for _, c := range p.Spec.Containers {
			if c.Name == name {
				return name
			}
		}
	}
	if len(p.Spec.Containers) > 0 {
		return p.Spec.Containers[0].Name
	}
	return ""
}

// ContainerFor returns container when given, else pod ns/name's DefaultContainer (read from the
// API server).
func ContainerFor(ctx context.Context, cs Interface, ns, name, container string) (string, error) {
	if container != "" {
		return container, nil
	}
	p, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return "", fmt.Errorf("reading pod %s/%s for its container: %v", ns, name, err)
	}
	return DefaultContainer(p), nil
}
