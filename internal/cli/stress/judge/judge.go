// Package judge is `osctl stress judge`: a saved run's verdict again, offline.
package judge

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/internal/cli/stress/shared"
	"github.com/osctl/osctl/internal/cli/stress/stateflags"
	pstress "github.com/osctl/osctl/pkg/stress"
	_ "github.com/osctl/osctl/pkg/stress/profiles" // the profiles a history may name
)

// JudgeOptions are the flags of `osctl stress judge`. The thresholds are the run's own (its
// history holds them) unless a flag is given.
type JudgeOptions struct {
	IO      *cmdutil.IOStreams
	Factory *cmdutil.Factory
	History string
	State   stateflags.Flags
	// Override is what the given threshold flags change; Report, JUnit and HTML are output files.
	Override            pstress.JudgeOptions
	Report, JUnit, HTML string
	Format              output.Format
}

// NewCmdJudge builds `osctl stress judge`.
func NewCmdJudge(f *cmdutil.Factory, runF func(context.Context, *JudgeOptions) error) *cobra.Command {
	o := &JudgeOptions{IO: f.IO, Factory: f}
	var minAck, minCont float64
	var maxActive int
	var grace time.Duration
	cmd := &cobra.Command{
		Use:   "judge --history FILE [--state-dir DIR | --state-pod POD]",
		Short: "Give a saved stress run's verdict again, offline, from its history and the state",
		Long: `judge re-runs the verdict of a stress run without a server: it reads the history written
with --history and the state of the run's objects, and gives the same verdict and exit code as
the run did (0 clean and conclusive, 1 races, 2 inconclusive), with the run's own thresholds
unless a flag here overrides one.`,
		Example: `  osctl stress judge --history run.jsonl --state-dir /tmp/osctl-sandbox-x -o json`,
		Args:    cobra.NoArgs,
		RunE: cmdutil.RunE(o, func(cmd *cobra.Command, _ []string) error {
			if o.History == "" {
				return cmdutil.Usage("pass --history FILE (written by osctl stress --history)")
			}
			// A threshold flag given here overrides the run's own.
			fl, ov := cmd.Flags(), &o.Override
			ov.MinAcknowledged, ov.MinContended = ifSet(fl.Changed("min-acknowledged"), &minAck), ifSet(fl.Changed("min-contended"), &minCont)
			ov.MaxActive, ov.Grace = ifSet(fl.Changed("max-active"), &maxActive), ifSet(fl.Changed("grace"), &grace)
			if err := ov.Check(); err != nil {
				return cmdutil.Usage("%w", err)
			}
			return o.State.Validate()
		}, runF, judgeRun),
	}
	cmdutil.NameSettings(cmd, cmdutil.Settings{"History": "--history", "StateDir": "--state-dir", "StatePod": "--state-pod",
		"MinAcknowledged": "--min-acknowledged", "MinContended": "--min-contended", "MaxActive": "--max-active", "Grace": "--grace"})
	fl := cmd.Flags()
	fl.StringVar(&o.History, "history", "", "the run's history file")
	o.State.Add(cmd, true)
	fl.StringSliceVar(&o.Override.Ignore, "ignore", nil, "base-name globs of app-generated files (default the run's own list)")
	fl.Float64Var(&minAck, "min-acknowledged", 0, "fraction of requests that must be acknowledged for a clean verdict (default the run's)")
	fl.Float64Var(&minCont, "min-contended", 0, "fraction of analyses that must see two or more overlapping writes (default the run's)")
	fl.IntVar(&maxActive, "max-active", 0, "jobs: the ceiling (default the run's)")
	fl.DurationVar(&grace, "grace", 0, "jobs: how long a queued job may wait while capacity is free (default the run's)")
	shared.AddReportFlags(cmd, &o.Report, &o.JUnit, &o.HTML)
	output.AddFlag(cmd, &o.Format)
	return cmd
}

func ifSet[T any](set bool, v *T) *T {
	if set {
		return v
	}
	return nil
}

func judgeRun(ctx context.Context, o *JudgeOptions) error {
	saved, err := pstress.ReadSaved(o.History)
	if err != nil {
		return err
	}
	if n := saved.History.CutNotice(); n != "" {
		fmt.Fprintln(o.IO.ErrOut, "warning: "+o.History+": "+n)
	}
	files, err := cmdutil.CreateFiles(o.Report, o.JUnit, o.HTML)
	if err != nil {
		return err
	}
	defer files.Close()
	reader, err := o.State.Reader(o.Factory)
	if err != nil {
		return err
	}
	o.Override.Version = o.Factory.Version
	rep, err := saved.Judge(ctx, reader, o.Override)
	if err != nil {
		return err
	}
	return shared.Finish(o.IO, o.Format, rep, files, o.Report, o.JUnit, o.HTML)
}
