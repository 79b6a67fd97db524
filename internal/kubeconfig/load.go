// Package kubeconfig loads a kubeconfig the way kubectl does. It lives outside pkg/ because
// client-go's clientcmd brings pflag with it, and the libraries under pkg/ stay free of the
// command-line flag packages (docs/architecture.md).
package kubeconfig

import (
	"fmt"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/osctl/osctl/pkg/k8s"
)

// Load builds clients from the kubeconfig the way kubectl does: c.Kubeconfig, else $KUBECONFIG
// or ~/.kube/config, then the in-cluster service account. It does no network I/O.
func Load(c k8s.Config) (*k8s.Clients, error) {
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
	if err != nil && c.Kubeconfig == "" && clientcmd.IsEmptyConfig(err) {
		// client-go's own message suggests KUBERNETES_MASTER, which kubectl no longer reads.
		return nil, fmt.Errorf("no kubeconfig found: tried %s: pass --kubeconfig FILE (and --context), or set KUBECONFIG", tried(rules))
	}
	if err != nil {
		return nil, fmt.Errorf("loading kubeconfig: %v: pass --kubeconfig and --context, or set KUBECONFIG", err)
	}
	rc.QPS, rc.Burst = 50, 100
	ns, _, err := cc.Namespace()
	if err != nil {
		return nil, fmt.Errorf("loading kubeconfig namespace: %v", err)
	}
	cs, err := k8s.NewForConfig(rc)
	if err != nil {
		return nil, fmt.Errorf("building Kubernetes client: %v", err)
	}
	return &k8s.Clients{REST: rc, Clientset: cs, Namespace: ns}, nil
}
