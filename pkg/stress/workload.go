package stress

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/stress/history"
)

// Workload reads the Deployment under test for a report: its first container's image and its
// ready replicas (what `osctl rollout --stress-report` checks the report against).
func Workload(ctx context.Context, cs k8s.Interface, namespace, name string) (*history.Workload, error) {
	d, err := cs.AppsV1().Deployments(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	w := &history.Workload{Namespace: namespace, Deployment: name, Replicas: d.Status.ReadyReplicas}
	if cs := d.Spec.Template.Spec.Containers; len(cs) > 0 {
		w.Image = cs[0].Image
	}
	return w, nil
}
