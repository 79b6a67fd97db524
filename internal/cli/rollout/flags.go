package rollout

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/rollout"
)

// PlanFlags are the flags that make a plan (plan and run).
type PlanFlags struct {
	Steps        string
	FinalMin     int32
	FinalMax     int32
	Hold         time.Duration
	StepTimeout  time.Duration
	GateInterval time.Duration
	RollbackTo   string
	Gates        GateFlags
}

// TargetFlags are what every subcommand takes: the HPA, and how to print.
type TargetFlags struct {
	HPA    string
	Format output.Format
}

func addTargetFlags(cmd *cobra.Command, t *TargetFlags) {
	cmd.Flags().StringVar(&t.HPA, "hpa", "", "the HorizontalPodAutoscaler to step (its scale target is the workload)")
	_ = cmd.MarkFlagRequired("hpa")
	output.AddFlag(cmd, &t.Format)
}

// ChangeFlags are the flags of the subcommands that change the HPA (run, resume, undo).
type ChangeFlags struct {
	Lease           LeaseFlags
	Yes             bool
	RollbackTimeout time.Duration
}

// addChangeFlags adds --yes, --rollback-timeout (what rollbackWhat may take) and the Lease
// flags, whose --force does what forceHelp says.
func addChangeFlags(cmd *cobra.Command, c *ChangeFlags, rollbackWhat, forceHelp string) {
	cmd.Flags().BoolVar(&c.Yes, "yes", false, "do not ask for confirmation (for scripts)")
	cmd.Flags().DurationVar(&c.RollbackTimeout, "rollback-timeout", rollout.DefaultRollbackTimeout, "how long "+rollbackWhat+" may take before it is reported as incomplete (exit 2)")
	addLeaseFlags(cmd, &c.Lease, forceHelp)
}

func addGateTimeoutFlag(cmd *cobra.Command, d *time.Duration) {
	cmd.Flags().DurationVar(d, "gate-timeout", rollout.DefaultGateTimeout, "how long one run of one gate may take")
}

// build parses the plan flags into built, then runs validate (nil: nothing more to check): the
// prepare step of plan and run.
func (p *PlanFlags) build(built *rollout.Plan, validate func() error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		pl, err := p.plan(cmd)
		if err != nil {
			return err
		}
		*built = pl
		if validate == nil {
			return nil
		}
		return validate()
	}
}

func addPlanFlags(cmd *cobra.Command, p *PlanFlags) {
	fl := cmd.Flags()
	fl.StringVar(&p.Steps, "steps", "", "absolute replica counts, increasing, for example 1,2,4 (required)")
	fl.Int32Var(&p.FinalMin, "final-min", 0, "minReplicas once the last step passed (default: stay pinned at the last step)")
	fl.Int32Var(&p.FinalMax, "final-max", 0, "maxReplicas once the last step passed (default: the last step)")
	fl.DurationVar(&p.Hold, "hold", 5*time.Minute, "how long each step holds, with the gates running, before the next")
	fl.DurationVar(&p.StepTimeout, "step-timeout", 5*time.Minute, "how long a step may take to have all its replicas updated, ready and available")
	fl.DurationVar(&p.GateInterval, "gate-interval", 30*time.Second, "how often the gates run during a hold")
	fl.StringVar(&p.RollbackTo, "rollback-to", rollout.RollbackOriginal, "what a failure restores: original (the range before the rollout) or last-good (the last step that passed)")
	addGateFlags(cmd, &p.Gates)
	_ = cmd.MarkFlagRequired("steps")
}

// plan builds and validates the plan from the flags.
func (p PlanFlags) plan(cmd *cobra.Command) (rollout.Plan, error) {
	steps, err := rollout.ParseSteps(p.Steps)
	if err != nil {
		return rollout.Plan{}, &cmdutil.UsageError{Err: err}
	}
	gc, err := p.Gates.gateConfig()
	if err != nil {
		return rollout.Plan{}, err
	}
	pl := rollout.Plan{Steps: steps, Hold: metav1.Duration{Duration: p.Hold}, StepTimeout: metav1.Duration{Duration: p.StepTimeout},
		GateInterval: metav1.Duration{Duration: p.GateInterval}, RollbackTo: p.RollbackTo, Gates: gc}
	minSet, maxSet := cmd.Flags().Changed("final-min"), cmd.Flags().Changed("final-max")
	if minSet || maxSet {
		last := steps[len(steps)-1]
		fr := rollout.Range{Min: last, Max: last}
		if minSet {
			fr.Min = p.FinalMin
		}
		if maxSet {
			fr.Max = p.FinalMax
		}
		pl.Final = &fr
	}
	if err := pl.Validate(); err != nil {
		return rollout.Plan{}, &cmdutil.UsageError{Err: err}
	}
	return pl, nil
}

// dryRunFlag is --dry-run=server|none.
type dryRunFlag string

func (d *dryRunFlag) String() string {
	if *d == "" {
		return "none"
	}
	return string(*d)
}

func (d *dryRunFlag) Set(s string) error {
	switch s {
	case "server", "none":
		*d = dryRunFlag(s)
		return nil
	case "true", "client":
		return fmt.Errorf("--dry-run=%s: use --dry-run=server (the API server checks every patch and stores nothing), or osctl rollout plan to print the patches", s)
	}
	return fmt.Errorf("--dry-run=%q: use server or none", s)
}

func (d *dryRunFlag) Type() string { return "string" }

func (d dryRunFlag) server() bool { return d == "server" }

func addDryRunFlag(cmd *cobra.Command, d *dryRunFlag) {
	cmd.Flags().Var(d, "dry-run", "server: send every change as a server-side dry run (admission, validation and RBAC answer; nothing is stored)")
	cmd.Flags().Lookup("dry-run").NoOptDefVal = "server"
}

// LeaseFlags control the rollout's Lease.
type LeaseFlags struct {
	Duration time.Duration
	Force    bool
}

func addLeaseFlags(cmd *cobra.Command, l *LeaseFlags, forceHelp string) {
	cmd.Flags().DurationVar(&l.Duration, "lease-duration", rollout.DefaultLeaseDuration, "how long the rollout's Lease outlives its holder")
	_ = cmd.Flags().MarkHidden("lease-duration")
	cmd.Flags().BoolVar(&l.Force, "force", false, forceHelp)
}
