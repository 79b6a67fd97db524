package ops

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// PodChecker says whether the pod named by an osctl holder value still exists.
type PodChecker interface {
	PodExists(ctx context.Context, name string) (bool, error)
	// Scope says where pods are looked up, for reasons ("namespace web").
	Scope() string
}

// KubePods checks pods in one namespace of a cluster.
type KubePods struct {
	Client    kubernetes.Interface
	Namespace string
}

// PodExists reports whether the pod exists; a NotFound answer is false with no error.
func (k KubePods) PodExists(ctx context.Context, name string) (bool, error) {
	_, err := k.Client.CoreV1().Pods(k.Namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// Scope returns "namespace <ns>".
func (k KubePods) Scope() string { return "namespace " + k.Namespace }
