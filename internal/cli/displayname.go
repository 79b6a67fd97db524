package cli

import (
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

// kubectlPlugin is the name kubectl runs osctl by as a plugin (krew links it so).
const kubectlPlugin = "kubectl-osctl"

// setDisplayName makes help, usage and error hints read "kubectl osctl" when osctl runs as the
// kubectl plugin (argv[0] kubectl-osctl), and "osctl" otherwise.
func setDisplayName(root *cobra.Command, argv0 string) {
	if strings.TrimSuffix(filepath.Base(argv0), ".exe") != kubectlPlugin {
		return
	}
	if root.Annotations == nil {
		root.Annotations = map[string]string{}
	}
	root.Annotations[cobra.CommandDisplayNameAnnotation] = "kubectl osctl"
}
