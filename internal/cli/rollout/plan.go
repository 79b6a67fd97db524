package rollout

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/rollout"
)

// PlanOptions are the inputs of `osctl rollout plan`.
type PlanOptions struct {
	F *cmdutil.Factory
	TargetFlags
	Plan PlanFlags

	// Built is the plan the flags make (set once they are parsed).
	Built rollout.Plan
}

// NewCmdPlan builds `osctl rollout plan`.
func NewCmdPlan(f *cmdutil.Factory, runF func(context.Context, *PlanOptions) error) *cobra.Command {
	opts := &PlanOptions{F: f}
	cmd := &cobra.Command{
		Use:   "plan --hpa NAME --steps 1,2,4 [--final-min N --final-max M]",
		Short: "Print the steps and the patches of a rollout without changing anything",
		Long: `Print what osctl rollout run would do with the same flags: the HPA and its Deployment, each
step's merge patch, the final range, the gates, what a failure restores, and warnings (the first
step lowering the range, Helm, Argo CD or Flux owning the HPA). It reads the cluster and changes
nothing.`,
		Example: `  osctl rollout plan -n openstudio --hpa web --steps 1,2,4 --final-min 2 --final-max 4
  osctl rollout plan -n openstudio --hpa web --steps 1,2 -o json`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(opts, opts.Plan.build(&opts.Built, nil), runF, planRun),
	}
	addTargetFlags(cmd, &opts.TargetFlags)
	addPlanFlags(cmd, &opts.Plan)
	cmdutil.NameSettings(cmd, settings)
	return cmd
}

func planRun(ctx context.Context, o *PlanOptions) error {
	s, err := open(ctx, o.F, o.HPA, nil)
	if err != nil {
		return err
	}
	v := rollout.Layout(s.target, o.Built)
	if r := rollout.CheckSingleOwner(s.target, o.Built); r.Status == "fail" {
		v.Warnings = append(v.Warnings, "REFUSED: "+r.Message)
	}
	if j := s.target.Journal; j != nil && j.Phase.Active() {
		v.Warnings = append(v.Warnings, (&rollout.ActiveError{Namespace: v.Namespace, HPA: v.HPA, Journal: j}).Error())
	}
	return output.Print(o.F.IO.Out, o.Format, v, func(w io.Writer) error { return printPlan(w, v) })
}
