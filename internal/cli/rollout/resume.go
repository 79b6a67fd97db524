package rollout

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/rollout"
)

// ResumeOptions are the inputs of `osctl rollout resume`.
type ResumeOptions struct {
	F *cmdutil.Factory
	TargetFlags
	ChangeFlags
	GateTimeout time.Duration
	Again       rollout.Again // --gate-http, --gate-cmd, --prometheus given again when the journal keeps them masked
}

// NewCmdResume builds `osctl rollout resume`.
func NewCmdResume(f *cmdutil.Factory, runF func(context.Context, *ResumeOptions) error) *cobra.Command {
	opts := &ResumeOptions{F: f}
	cmd := &cobra.Command{
		Use:   "resume --hpa NAME",
		Short: "Continue a rollout whose osctl died (after its Lease expired), with the same plan and gates",
		Long: `Continue the rollout recorded on the HPA after the osctl running it died (even kill -9): once
its Lease has expired (about 30 s), resume takes it over, checks that nobody changed the HPA
meanwhile, and goes on with the same plan and gates from the current step (its hold starts
again), or finishes an interrupted rollback. --force takes over a live Lease (loudly).
The locks gate needs the Redis flags again: osctl keeps no credentials in the cluster. For the
same reason a --gate-http or --gate-cmd with a credential in it (a URL password, token=,
password=, a bearer token) is kept masked in the journal: pass the same flag again.`,
		Example: `  osctl rollout resume -n openstudio --hpa web --redis-service queue`,
		Args:    cobra.NoArgs,
		RunE:    cmdutil.RunE(opts, nil, runF, resumeRun),
	}
	addTargetFlags(cmd, &opts.TargetFlags)
	addGateTimeoutFlag(cmd, &opts.GateTimeout)
	cmd.Flags().StringVar(&opts.Again.HTTP, "gate-http", "", "the rollout's --gate-http again, when it held a credential (the journal keeps it masked)")
	cmd.Flags().StringVar(&opts.Again.Cmd, "gate-cmd", "", "the rollout's --gate-cmd again, when it held a credential (the journal keeps it masked)")
	addPrometheusFlag(cmd, &opts.Again.Prometheus, "the rollout's --prometheus again, when its URL held a password (the journal keeps it masked)")
	addChangeFlags(cmd, &opts.ChangeFlags, "a rollback", "take over the rollout even while another osctl holds its Lease (loudly)")
	cmdutil.NameSettings(cmd, settings)
	return cmd
}

func resumeRun(ctx context.Context, o *ResumeOptions) error {
	f := o.F
	s, j, restore, err := openJournal(ctx, f, o.HPA, nil, "resume", "the rollout was not resumed: the HPA and its journal are as they were (run osctl rollout resume again)")
	defer restore()
	if err != nil {
		return err
	}
	r, t := s.runner, s.target
	if err := rollout.CheckPermissions(ctx, s.kube.Clientset, r.Namespace, rollout.RequiredPermissions(r.Namespace, *needsFor(j.Plan.Gates, true))); err != nil {
		return err
	}
	if err := s.target.Held("", o.Lease.Force); err != nil {
		return forceHint(err)
	}
	gc, err := j.Plan.Gates.Given(o.Again)
	if err != nil {
		return &cmdutil.UsageError{Err: err}
	}
	env, closeEnv := checks(f, s.kube, r.Namespace, t)
	defer closeEnv()
	gates, err := gatesReady(ctx, env, gc, o.GateTimeout)
	if err != nil {
		return err
	}
	fmt.Fprintf(f.IO.ErrOut, "rollout %s of HPA %s/%s: %s at %s, started by %s\n", j.ID, r.Namespace, r.HPA, j.Phase, j.Position(), j.Holder)
	if o.Lease.Force && t.Lease != nil && t.Lease.Live {
		fmt.Fprintf(f.IO.ErrOut, "WARNING: --force: taking the rollout over from %s, whose Lease is valid until %s\n", t.Lease.Holder, t.Lease.Expires.UTC().Format(time.RFC3339))
	}
	if err := cmdutil.Confirm(f.IO, o.Yes, fmt.Sprintf("Resume the rollout of HPA %s/%s?", r.Namespace, r.HPA)); err != nil {
		return err
	}
	stop := s.drive(ctx, f, o.Lease, o.GateTimeout, o.RollbackTimeout, false)
	defer stop()
	out, err := r.Resume(ctx, t, gates)
	if err != nil {
		return err
	}
	return finish(f, o.Format, rollout.Layout(t, j.Plan), out)
}
