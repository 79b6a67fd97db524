// Package k8s holds osctl's Kubernetes plumbing that is not specific to one command: loading a
// kubeconfig like kubectl does, reading a key of a Secret, port-forwarding to a Service, checking
// permissions, streaming an exec, and running an Indexed Job's pods.
package k8s

import (
	"fmt"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
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
	Clientset kubernetes.Interface
	Namespace string
}

// Load builds clients from the kubeconfig the way kubectl does. It does no network I/O.
func Load(c Config) (*Clients, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if c.Kubeconfig != "" {
		rules.ExplicitPath = c.Kubeconfig
	}
	overrides := &clientcmd.ConfigOverrides{CurrentContext: c.Context}
	if c.Namespace != "" {
		overrides.Context.Namespace = c.Namespace
	}
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides)
	rc, err := cc.ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("loading kubeconfig: %v: pass --kubeconfig and --context, or set KUBECONFIG", err)
	}
	rc.QPS, rc.Burst = 50, 100
	ns, _, err := cc.Namespace()
	if err != nil {
		return nil, fmt.Errorf("loading kubeconfig namespace: %v", err)
	}
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return nil, fmt.Errorf("building Kubernetes client: %v", err)
	}
	return &Clients{REST: rc, Clientset: cs, Namespace: ns}, nil
}
