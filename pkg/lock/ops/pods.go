package ops

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/k8s"
)

// PodChecker says whether the pod named by an osctl holder value is gone from the namespace its
// value records.
type PodChecker interface {
	// PodGone reports true only when the API server says both that namespace exists and that no
	// pod of that name is in it. Any doubt (the namespace is not there or cannot be seen, the
	// lookup is refused or fails) is an error: the holder's liveness is unknown.
	PodGone(ctx context.Context, namespace, name string) (bool, error)
}

// KubePods checks pods in the cluster of Client.
type KubePods struct {
	Client k8s.Interface
	// Namespace is the kubeconfig's namespace. Holders are no longer looked up in it: each is
	// looked up in the namespace its value records (a value without one is never judged gone).
	Namespace string
}

// PodGone looks the pod up in namespace. A NotFound answer means gone only when the namespace is
// known to exist in this cluster: a Get of the namespace, or, where that is forbidden (a
// namespaced Role), a List of its pods that finds others. A namespace that is not there may be
// another cluster's, so a pod missing from it proves nothing.
func (k KubePods) PodGone(ctx context.Context, namespace, name string) (bool, error) {
	_, err := k.Client.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
	if err == nil {
		return false, nil
	}
	if !apierrors.IsNotFound(err) {
		return false, err
	}
	_, nerr := k.Client.CoreV1().Namespaces().Get(ctx, namespace, metav1.GetOptions{})
	switch {
	case nerr == nil:
		return true, nil
	case apierrors.IsNotFound(nerr):
		return false, fmt.Errorf("namespace %s does not exist in this cluster (the holder may run in another one)", namespace)
	}
	list, lerr := k.Client.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{Limit: 1})
	if lerr != nil {
		return false, fmt.Errorf("cannot tell whether namespace %s exists: %v; %v", namespace, nerr, lerr)
	}
	if len(list.Items) == 0 {
		return false, fmt.Errorf("cannot tell whether namespace %s exists (%v) and it lists no pods", namespace, nerr)
	}
	return true, nil
}
