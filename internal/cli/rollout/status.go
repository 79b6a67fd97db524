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
	"github.com/osctl/osctl/pkg/rollout"
)

// StatusOptions are the inputs of `osctl rollout status`.
type StatusOptions struct {
	F      *cmdutil.Factory
	HPA    string
	Format output.Format
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
	addHPAFlag(cmd, &opts.HPA)
	output.AddFlag(cmd, &opts.Format)
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

func printStatus(w io.Writer, v *rollout.StatusView, now time.Time) error {
	fmt.Fprintf(w, "HPA %s/%s: range %s; Deployment %s: %s\n", v.Namespace, v.HPA, rng(v.Range), v.Deployment, v.State)
	if l := v.Lease; l != nil && l.Holder != "" {
		state := "expired"
		if l.Live {
			state = "live"
		}
		fmt.Fprintf(w, "lease: %s, held by %s until %s (%s)\n", l.Name, l.Holder, l.Expires.UTC().Format(time.RFC3339), state)
	} else {
		fmt.Fprintln(w, "lease: free")
	}
	j := v.Journal
	if j == nil {
		fmt.Fprintln(w, "no rollout recorded on this HPA")
		return nil
	}
	step := j.Position()
	fmt.Fprintf(w, "rollout %s: %s, %s; expected range %s; original %s; started %s ago by %s\n", j.ID, strings.ToUpper(string(j.Phase)), step,
		rng(j.Expected), rng(j.Original.Range), now.Sub(j.StartedAt).Round(time.Second), j.Holder)
	if j.Reason != "" {
		fmt.Fprintf(w, "reason: %s\n", j.Reason)
	}
	if v.Drift != "" {
		fmt.Fprintf(w, "DRIFT: the HPA's spec differs from the journal: %s\n", v.Drift)
	}
	for _, g := range j.Gates {
		fmt.Fprintf(w, "gate %s: %s at %s %s\n", g.Gate, strings.ToUpper(g.Status), g.At.UTC().Format("15:04:05"), g.Message)
	}
	switch j.Phase {
	case rollout.PhaseRunning, rollout.PhaseRollingBack:
		if v.Lease == nil || !v.Lease.Live {
			fmt.Fprintln(w, "the holder is gone (Lease expired): osctl rollout resume continues it, osctl rollout undo restores the original range")
		}
	case rollout.PhaseRollbackFailed, rollout.PhaseStopped:
		fmt.Fprintln(w, "unfinished: osctl rollout undo restores the original range")
	}
	return printHistory(w, j)
}
