// Package k8s holds osctl's Kubernetes plumbing that is not specific to one command: the clients
// a command talks through, reading a key of a Secret, port-forwarding to a Service, checking
// permissions, streaming an exec, and running an Indexed Job's pods. Loading a kubeconfig is
// internal/kubeconfig's job.
package k8s

import (
	"k8s.io/client-go/rest"
)

// Config says which cluster to talk to, as kubectl's flags do.
type Config struct {
	Kubeconfig string // path; empty means $KUBECONFIG or ~/.kube/config, then in-cluster
	Context    string
	Namespace  string // empty means the context's namespace, else "default"
}

// Clients are a REST config, a typed clientset and the namespace to use.
type Clients struct {
	REST      *rest.Config
	Clientset Interface
	Namespace string
}
