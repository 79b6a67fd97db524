// Package rollout is `osctl rollout`: plan, run, status, resume and undo a gated 1 -> 2 -> N
// change of the web HPA's replica range (pkg/rollout does the work).
package rollout

import (
	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
)

// settings names the flags that set pkg/rollout's settings, for its *setting.Error messages.
var settings = cmdutil.Settings{
	"Steps": "--steps", "Final": "--final-min/--final-max", "StepTimeout": "--step-timeout", "Hold": "--hold",
	"GateInterval": "--gate-interval", "RollbackTo": "--rollback-to", "Force": "--force", "HPA": "--hpa",
	"StressReport": "--stress-report",
	"Prom.Queries": "--gate-prom", "Prom.URL": "--prometheus", "Prom.CAFile": "--prometheus-ca",
	"Prom.BearerFile": "--prometheus-bearer-file", "Prom.NoData": "--gate-prom-no-data",
}

// NewCmdRollout builds `osctl rollout` and its subcommands.
func NewCmdRollout(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rollout",
		Short: "Step the web HPA 1 -> 2 -> N replicas with gates and automatic rollback",
		Long: `Take the web tier from one replica to many in gated steps. Each step pins the HPA
(minReplicas = maxReplicas = k), watches the Deployment until k replicas are updated, ready and
available, then holds while the gates run (NFS mounts of every pod, Redis locks, pod restarts,
an HTTP check, a command). A failed gate, a step timeout or Ctrl-C rolls back to the original
range. The state lives on the HPA (annotation osctl.io/rollout) and a Lease guards it, so
status works from any terminal and resume/undo work after a crash.

Going above one replica needs: the NFS preflight (live, every pod) and the Redis preflight
passing, and a clean, conclusive stress report (osctl stress --report) made against the image the
Deployment runs now. A workload annotated osctl.io/single-owner: "true" is never scaled above one.

Exit codes: 0 the rollout completed; 1 a gate or precondition failed (rolled back, or nothing
changed); 2 it could not do its job (a rollback that could not complete: run osctl rollout undo).`,
	}
	cmd.AddCommand(
		NewCmdPlan(f, nil),
		NewCmdRun(f, nil),
		NewCmdStatus(f, nil),
		NewCmdResume(f, nil),
		NewCmdUndo(f, nil),
	)
	return cmd
}
