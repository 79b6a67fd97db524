package k8s

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestDefaultContainer: the annotation's container when the pod has it, else the first; an
// annotation naming no container of the pod is not followed.
func TestDefaultContainer(t *testing.T) {
	pod := func(ann string, names ...string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{}}}
		if ann != "" {
			p.Annotations[DefaultContainerAnnotation] = ann
		}
		for _, n := range names {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: n})
		}
		return p
	}
	for _, tc := range []struct {
		p    *corev1.Pod
		want string
	}{
		{pod("", "app", "sidecar"), "app"},
		{pod("sidecar", "app", "sidecar"), "sidecar"},
		{pod("gone", "app", "sidecar"), "app"},
		{pod(""), ""},
	} {
		if got := DefaultContainer(tc.p); got != tc.want {
			t.Errorf("DefaultContainer(%v, %v) = %q, want %q", tc.p.Annotations, tc.p.Spec.Containers, got, tc.want)
		}
	}
}
