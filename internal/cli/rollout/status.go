package rollout

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
)

// StatusOptions are the inputs of `osctl rollout status`.
type StatusOptions struct {
	F *cmdutil.Factory
	TargetFlags
}

// NewCmdStatus builds `osctl rollout status`.
func NewCmdStatus(f *cmdutil.Factory, runF func(context.Context, *StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{F: f}
	cmd := &cobra.Command{
		Use:   "status --hpa NAME",
		Short: "Show the rollout recorded on an HPA: phase, step, history, gates, Lease holder",
		Long: `Show the rollout recorded on the HPA (from any terminal, while it runs or after it ended): its
phase, the current step, the history, the latest gate results, who holds the Lease and until
when, and the Deployment's replicas. It changes nothing.`,
		Example: `  osctl rollout status -n openstudio --hpa web
  osctl rollout status -n openstudio --hpa web -o json`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(opts, nil, runF, statusRun),
	}
	addTargetFlags(cmd, &opts.TargetFlags)
	cmdutil.NameSettings(cmd, settings)
	return cmd
}

func statusRun(ctx context.Context, o *StatusOptions) error {
	s, err := open(ctx, o.F, o.HPA, nil)
	if err != nil {
		return err
	}
	v, err := s.runner.Status(ctx)
	if err != nil {
		return err
	}
	return output.Print(o.F.IO.Out, o.Format, v, func(w io.Writer) error { return printStatus(w, v, o.F.Now()) })
}
