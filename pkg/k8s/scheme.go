package k8s

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// scheme knows the core/v1 types whose options osctl sends as query parameters (PodExecOptions,
// PodPortForwardOptions, PodLogOptions) and meta/v1's list and get options.
var scheme = newScheme()

// ParameterCodec encodes core/v1 options into a request's query parameters, as client-go's
// kubernetes/scheme.ParameterCodec does for every API group:
// req.VersionedParams(&corev1.PodExecOptions{...}, k8s.ParameterCodec).
var ParameterCodec = runtime.NewParameterCodec(scheme)

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	if err := corev1.AddToScheme(s); err != nil {
		panic("k8s: registering core/v1: " + err.Error()) // generated code: cannot fail
	}
	return s
}
