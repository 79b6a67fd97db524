package rollout

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/rollout"
)

// RunOptions are the inputs of `osctl rollout run`.
type RunOptions struct {
	F *cmdutil.Factory
	TargetFlags
	ChangeFlags
	Plan        PlanFlags
	Validation  ValidationFlags
	DryRun      dryRunFlag
	GateTimeout time.Duration

	// Built is the plan the flags make (set once they are parsed).
	Built rollout.Plan
}

// NewCmdRun builds `osctl rollout run`.
func NewCmdRun(f *cmdutil.Factory, runF func(context.Context, *RunOptions) error) *cobra.Command {
	opts := &RunOptions{F: f, Validation: ValidationFlags{MaxReportAge: durationFlag{d: 24 * time.Hour}}}
	cmd := &cobra.Command{
		Use:   "run --hpa NAME --steps 1,2,4 [--final-min N --final-max M] [gates]",
		Short: "Step the HPA through the plan, holding each step while the gates pass; roll back on failure",
		Long: `Step the HPA's replica range through --steps (absolute counts). Each step pins the HPA
(minReplicas = maxReplicas = k), watches the Deployment until k replicas are updated, ready and
available (within --step-timeout), then holds for --hold while the gates run every
--gate-interval. After the last step the HPA gets --final-min/--final-max.

When the HPA allows more replicas today than the first step, the first step brings it down; run
says so and asks. Going above one replica first checks: the workload is not single-owner, the
stress report (--stress-report, clean, conclusive, complete, younger than --max-report-age, made
against the image the Deployment runs), the NFS preflight in every pod, the Redis preflight.

A failed gate, a step timeout or Ctrl-C rolls back to the original range (or --rollback-to
last-good), waits for the Deployment, and exits 1. A second Ctrl-C does not abandon a rollback.
A rollback that cannot complete exits 2 and leaves the journal for osctl rollout undo.`,
		Example: `  osctl rollout run -n openstudio --hpa web --steps 1,2,4 --final-min 2 --final-max 4 \
      --stress-report stress.json --redis-service queue --gate-http https://web.example/health
  osctl rollout run -n openstudio --hpa web --steps 1,2 --dry-run=server --skip-validation --redis-service queue`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(opts, opts.Plan.build(&opts.Built, opts.validate), runF, runRun),
	}
	addTargetFlags(cmd, &opts.TargetFlags)
	addPlanFlags(cmd, &opts.Plan)
	fl := cmd.Flags()
	fl.StringVar(&opts.Validation.StressReport, "stress-report", "", "the JSON report of osctl stress --report that validates more than one replica")
	fl.Var(&opts.Validation.MaxReportAge, "max-report-age", "the oldest stress report accepted (24h, 7d)")
	fl.BoolVar(&opts.Validation.Strict, "strict", false, "refuse steps above the replica count the stress report validated (default: warn)")
	fl.BoolVar(&opts.Validation.SkipValidation, "skip-validation", false, "go above one replica without a stress report (loudly; the NFS and Redis preflights still run)")
	addGateTimeoutFlag(cmd, &opts.GateTimeout)
	addDryRunFlag(cmd, &opts.DryRun)
	addChangeFlags(cmd, &opts.ChangeFlags, "a rollback", "take over the rollout Lease even while another osctl holds it (loudly)")
	cmdutil.NameSettings(cmd, settings)
	return cmd
}

// validate checks the flags and arguments; it does no I/O.
func (o *RunOptions) validate() error {
	if o.Lease.Duration < 2*time.Second {
		return cmdutil.Usage("--lease-duration must be at least 2s")
	}
	return nil
}

func runRun(ctx context.Context, o *RunOptions) error {
	f, p := o.F, o.Built
	needs := needsFor(p.Gates, true)
	if p.MaxReplicas() > 1 {
		needs.NFSGate = true
		needs.PodsGate = true
	}
	s, restore, err := openChanging(ctx, f, o.HPA, needs, "the rollout had not started: the HPA was not changed")
	defer restore()
	if err != nil {
		return err
	}
	r, t := s.runner, s.target
	view := rollout.Layout(t, p)
	errOut := f.IO.ErrOut
	if err := s.awaitLease(ctx, f, o.Lease.Force); err != nil {
		return err
	}
	if t.Journal != nil && t.Journal.Phase.Active() {
		return &rollout.ActiveError{Namespace: r.Namespace, HPA: r.HPA, Journal: t.Journal}
	}
	printPlanSummary(errOut, view)
	env, closeEnv := checks(f, s.kube, r.Namespace, t)
	defer closeEnv()
	if p.MaxReplicas() > 1 || rollout.CheckSingleOwner(t, p).Status == preflight.Fail {
		fmt.Fprintf(errOut, "checking the preconditions for more than one replica...\n")
	}
	rs, err := env.Preconditions(ctx, p, o.Validation.validation())
	if err != nil {
		return preconditionsErr(err)
	}
	printResults(errOut, rs)
	if o.Validation.SkipValidation && p.MaxReplicas() > 1 {
		fmt.Fprintln(errOut, "WARNING: --skip-validation: no stress report validates this workload above one replica")
	}
	if preflight.Failed(rs) {
		return cmdutil.Found("preconditions failed (see above): nothing was changed")
	}
	gates, err := gatesReady(ctx, func() ([]rollout.Gate, error) { return env.Gates(ctx, p.Gates) }, o.GateTimeout)
	if err != nil {
		return err
	}
	q := fmt.Sprintf("Start the rollout of HPA %s/%s (%s -> steps %s -> final %s)?", r.Namespace, r.HPA, rng(view.Current), joinSteps(p.Steps), rng(p.FinalRange()))
	if view.ScalesDown {
		q = fmt.Sprintf("%s The first step LOWERS the HPA to %d: the Deployment scales down from %d to %d replicas. Continue?", strings.TrimSuffix(q, "?")+".", p.Steps[0], view.Replicas, p.Steps[0])
	}
	if o.DryRun.server() {
		r.DryRun = true
	} else if err := cmdutil.Confirm(f.IO, o.Yes, q); err != nil {
		return err
	}
	stopSignals := s.drive(ctx, f, o.Lease, o.GateTimeout, o.RollbackTimeout, false)
	defer stopSignals()
	out, err := r.Run(ctx, t, p, gates)
	if err != nil {
		return forceHint(err)
	}
	return finish(f, o.Format, view, out)
}

func joinSteps(s []int32) string {
	parts := make([]string, len(s))
	for i, k := range s {
		parts[i] = fmt.Sprint(k)
	}
	return strings.Join(parts, " -> ")
}

// finish prints the outcome and turns it into the exit code.
func finish(f *cmdutil.Factory, format output.Format, view *rollout.PlanView, out *rollout.Outcome) error {
	if err := output.Print(f.IO.Out, format, out, func(w io.Writer) error { return printOutcome(w, out) }); err != nil {
		return err
	}
	switch out.Phase {
	case rollout.PhaseCompleted:
		if view != nil {
			for _, m := range view.Managers {
				if m.Kind == "helm" {
					fmt.Fprintf(f.IO.ErrOut, "Helm: persist the new range in the release values, or the next helm upgrade resets it: %s\n", helmSet(m))
				}
			}
		}
		return nil
	case rollout.PhaseDryRun, rollout.PhaseUndone:
		return nil
	case rollout.PhaseRolledBack:
		return cmdutil.Found("rolled back to HPA range %s: %s", rng(out.Final), out.Reason)
	case rollout.PhaseRollbackFailed:
		return fmt.Errorf("the rollback could not complete: %s; the journal on the HPA says what remains: run osctl rollout undo", out.Reason)
	default:
		return fmt.Errorf("the rollout stopped: %s", out.Reason)
	}
}
