package rollout

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
	Gates       GateFlags // the rollout's gates, given again (the journal keeps only their digest)
	AcceptGates bool      // confirm the gates of an older osctl's journal that kept one masked

	// Given is the gate config the flags make (set once they are parsed).
	Given rollout.GateConfig
}

// gateFlagNames are the flags that set the gates, for the refusal of other gates.
const gateFlagNames = "--gates, --nfs-path, --gate-http, --gate-http-latency, --gate-cmd, --gate-prom, --prometheus, --prometheus-ca, --prometheus-bearer-file, --gate-prom-no-data"

// NewCmdResume builds `osctl rollout resume`.
func NewCmdResume(f *cmdutil.Factory, runF func(context.Context, *ResumeOptions) error) *cobra.Command {
	opts := &ResumeOptions{F: f}
	cmd := &cobra.Command{
		Use:   "resume --hpa NAME [the run's gate flags]",
		Short: "Continue a rollout whose osctl died, with the same plan and the gates given again",
		Long: `Continue the rollout recorded on the HPA after the osctl running it died (even kill -9): once
its Lease has stayed unchanged for its duration (about 30 s, watched on this machine's clock),
resume takes it over, checks that nobody changed the HPA meanwhile, and goes on with the same
plan from the current step (its hold starts again), or finishes an interrupted rollback.
--force takes over a Lease at once (loudly).

The journal on the HPA keeps the gates' names and a digest of their settings, never a command,
URL or file path: give the same gate flags as the original run (` + gateFlagNames + `;
the defaults are the run's). Different gates are refused and nothing runs. The locks gate needs
the Redis flags again: osctl keeps no credentials in the cluster. A journal written by an older
osctl kept the gates' settings themselves: they are never run, only compared with the flags
given; where it kept a credential masked, --accept-gates confirms that the flags given are the
rollout's.`,
		Example: `  osctl rollout resume -n openstudio --hpa web --redis-service queue \
      --gate-cmd "osctl stress --target https://web.example ..."`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(opts, opts.prepare, runF, resumeRun),
	}
	addTargetFlags(cmd, &opts.TargetFlags)
	addGateTimeoutFlag(cmd, &opts.GateTimeout)
	addGateFlags(cmd, &opts.Gates)
	cmd.Flags().BoolVar(&opts.AcceptGates, "accept-gates", false, "for a journal written by an older osctl that kept a gate's credential masked: confirm that the gate flags given are the rollout's")
	addChangeFlags(cmd, &opts.ChangeFlags, "a rollback", "take over the rollout at once, even while another osctl holds its Lease (loudly)")
	cmdutil.NameSettings(cmd, settings)
	return cmd
}

func (o *ResumeOptions) prepare(*cobra.Command, []string) error {
	gc, err := o.Gates.gateConfig()
	o.Given = gc
	return err
}

func resumeRun(ctx context.Context, o *ResumeOptions) error {
	f := o.F
	s, j, restore, err := openJournal(ctx, f, o.HPA, nil, "resume", "the rollout was not resumed: the HPA and its journal are as they were (run osctl rollout resume again)")
	defer restore()
	if err != nil {
		return err
	}
	r, t := s.runner, s.target
	if err := checkGates(j.Plan.GateRecord, o.Given, o.AcceptGates); err != nil {
		return err
	}
	if err := rollout.CheckPermissions(ctx, s.kube.Clientset, r.Namespace, rollout.RequiredPermissions(r.Namespace, *needsFor(o.Given, true))); err != nil {
		return err
	}
	if err := s.awaitLease(ctx, f, o.Lease.Force); err != nil {
		return err
	}
	env, closeEnv := checks(f, s.kube, r.Namespace, t)
	defer closeEnv()
	gates, err := gatesReady(ctx, func() ([]rollout.Gate, error) {
		return env.ResumeGates(ctx, j.Plan.GateRecord, o.Given, o.AcceptGates)
	}, o.GateTimeout)
	if err != nil {
		return err
	}
	// The gates given are the rollout's: the journal records them as today's osctl does (a
	// journal of an older osctl loses the settings it stored).
	j.Plan.GateRecord = o.Given.Record()
	fmt.Fprintf(f.IO.ErrOut, "rollout %s of HPA %s/%s: %s at %s, started by %s; gates [%s] as given\n", j.ID, r.Namespace, r.HPA, j.Phase, j.Position(), j.Holder, strings.Join(o.Given.Names(), ", "))
	if err := cmdutil.Confirm(f.IO, o.Yes, fmt.Sprintf("Resume the rollout of HPA %s/%s?", r.Namespace, r.HPA)); err != nil {
		return err
	}
	stop := s.drive(ctx, f, o.Lease, o.GateTimeout, o.RollbackTimeout, false)
	defer stop()
	out, err := r.Resume(ctx, t, gates)
	if err != nil {
		return forceHint(err)
	}
	return finish(f, o.Format, rollout.Layout(t, j.Plan), out)
}

// checkGates refuses gates other than the rollout's, in one line naming the flags to give.
func checkGates(rec rollout.GateRecord, given rollout.GateConfig, accept bool) error {
	if accept && !rec.Legacy() {
		return cmdutil.Usage("--accept-gates is only for a journal written by an older osctl; this one records its gates' digest: give the same gate flags as the original run")
	}
	err := rec.Check(given, accept)
	var de *rollout.GatesDifferError
	var ue *rollout.UncheckedGatesError
	switch {
	case errors.As(err, &de):
		return fmt.Errorf("the gates given differ from the ones the rollout started with (%s): pass the same gate flags as the original run (%s); nothing was run or changed", de.Detail(), gateFlagNames)
	case errors.As(err, &ue):
		return fmt.Errorf("the rollout's journal was written by an older osctl, which kept the %s gate's credential masked, so osctl cannot check the flags given against it: pass the same gate flags as the original run and --accept-gates to confirm them; nothing was run or changed", strings.Join(ue.Masked, ", "))
	}
	return err
}
