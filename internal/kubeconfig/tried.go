package kubeconfig

import (
	"errors"
	"io/fs"
	"os"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// tried says, for an error message, where a kubeconfig was looked for and why each place gave
// nothing: the $KUBECONFIG entries (or ~/.kube/config when KUBECONFIG is unset), then the
// in-cluster service account.
func tried(rules *clientcmd.ClientConfigLoadingRules) string {
	var parts []string
	source := "~/.kube/config"
	if os.Getenv(clientcmd.RecommendedConfigPathEnvVar) != "" {
		source = "$KUBECONFIG"
	}
	for _, p := range rules.GetLoadingPrecedence() {
		parts = append(parts, source+" "+p+" ("+fileState(p)+")")
	}
	if len(parts) == 0 {
		parts = append(parts, "$KUBECONFIG (it names no file)")
	}
	parts = append(parts, "in-cluster ("+inClusterState()+")")
	return strings.Join(parts, ", ")
}

// fileState says why a kubeconfig file gave no configuration.
func fileState(p string) string {
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case err != nil:
		return err.Error()
	case st.IsDir():
		return "a directory"
	}
	return "no cluster or current context in it"
}

// inClusterState says why the in-cluster configuration gave nothing.
func inClusterState() string {
	if os.Getenv("KUBERNETES_SERVICE_HOST") == "" || os.Getenv("KUBERNETES_SERVICE_PORT") == "" {
		return "KUBERNETES_SERVICE_HOST/PORT not set: not in a pod"
	}
	if _, err := rest.InClusterConfig(); err != nil {
		return err.Error()
	}
	return "available but not chosen"
}
