package rollout

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/rollout"
)

// UndoOptions are the inputs of `osctl rollout undo`.
type UndoOptions struct {
	F *cmdutil.Factory
	TargetFlags
	ChangeFlags
	DryRun dryRunFlag
}

// NewCmdUndo builds `osctl rollout undo`.
func NewCmdUndo(f *cmdutil.Factory, runF func(context.Context, *UndoOptions) error) *cobra.Command {
	opts := &UndoOptions{F: f}
	cmd := &cobra.Command{
		Use:   "undo --hpa NAME",
		Short: "Restore the HPA range from before the recorded rollout and wait for the Deployment",
		Long: `Restore the HPA's original range from the rollout journal (whatever its phase: running after
a crash, stopped, a rollback that could not complete, or completed) and wait until the
Deployment has scaled back. When someone else changed the HPA's spec since, undo refuses to
overwrite that without --force (which also takes over a live Lease, loudly).`,
		Example: `  osctl rollout undo -n openstudio --hpa web
  osctl rollout undo -n openstudio --hpa web --yes --force`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(opts, nil, runF, undoRun),
	}
	addTargetFlags(cmd, &opts.TargetFlags)
	addDryRunFlag(cmd, &opts.DryRun)
	addChangeFlags(cmd, &opts.ChangeFlags, "the restore", "take over a live Lease, and overwrite a change made to the HPA outside the rollout (loudly)")
	cmdutil.NameSettings(cmd, settings)
	return cmd
}

func undoRun(ctx context.Context, o *UndoOptions) error {
	f := o.F
	s, j, restore, err := openJournal(ctx, f, o.HPA, &rollout.Needs{Change: true, Watch: true}, "undo", "nothing was undone: the HPA and its journal are as they were (run osctl rollout undo again)")
	defer restore()
	if err != nil {
		return err
	}
	r, t := s.runner, s.target
	if err := s.awaitLease(ctx, f, o.Lease.Force); err != nil {
		return err
	}
	fmt.Fprintf(f.IO.ErrOut, "rollout %s of HPA %s/%s: %s at %s; the HPA range is %s; undo restores %s\n",
		j.ID, r.Namespace, r.HPA, j.Phase, j.Position(), rng(rollout.RangeOf(t.HPA)), rng(j.Original.Range))
	if o.DryRun.server() {
		r.DryRun = true
	} else if err := cmdutil.Confirm(f.IO, o.Yes, fmt.Sprintf("Restore HPA %s/%s to its original range %s?", r.Namespace, r.HPA, j.Original.Range)); err != nil {
		return err
	}
	stop := s.drive(ctx, f, o.Lease, r.GateTimeout, o.RollbackTimeout, true)
	defer stop()
	out, err := r.Undo(ctx, t)
	if err != nil {
		return err
	}
	if r.DryRun {
		fmt.Fprintf(f.IO.Out, "dry run: undo would restore HPA %s/%s to %s; nothing was changed\n", r.Namespace, r.HPA, j.Original.Range)
		return nil
	}
	return finish(f, o.Format, nil, out)
}
