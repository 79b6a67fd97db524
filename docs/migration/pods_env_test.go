//go:build linux

package migration_test

import (
	"testing"

	"github.com/osctl/osctl/internal/testenv/realnode"
)

// webTierEnv starts the sandbox's web tier in real pods, with locking (the fixed app), 2 replicas,
// in a namespace of its own on the shared real node, and returns the variables a pods block sees.
func webTierEnv(t *testing.T, binDir string) []string {
	t.Helper()
	c := realnode.Shared(t)
	ns := c.Kube.NewNamespace(t)
	w := c.StartWebTier(t, ns, realnode.WebTierOptions{Replicas: 2, Locking: "redlock"})
	return []string{
		"KUBECONFIG=" + c.Kube.Kubeconfig, "REHEARSAL_NS=" + ns, "REHEARSAL_STATE_DIR=" + w.StateDir,
		"PATH=" + binDir + ":" + c.Kube.BinDir + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	}
}
