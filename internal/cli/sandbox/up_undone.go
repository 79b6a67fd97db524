package sandbox

import (
	"strings"

	"github.com/osctl/osctl/pkg/sandbox"
)

// undone names, for a second Ctrl-C, which exits at once (see cmdutil.Interrupts), the
// replicas and redis-servers up started and has not stopped yet, by pid. They do not outlive up:
// each is started with Pdeathsig SIGKILL, so the kernel kills them when up exits, without their
// graceful stop.
func undone(sup *sandbox.Supervisor) string {
	var parts []string
	for _, p := range sup.Running() {
		parts = append(parts, p.String())
	}
	if len(parts) == 0 {
		return ""
	}
	return "the graceful stop of " + strings.Join(parts, ", ") + ": they are killed with osctl, a request in flight may be cut; state kept in " + sup.Dir()
}
