package stress

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/schollz/progressbar/v3"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/internal/cli/stress/shared"
	pstress "github.com/osctl/osctl/pkg/stress"
)

func runStress(ctx context.Context, o *Options) error {
	errOut := o.IO.ErrOut
	pods, err := o.Workload.Open(ctx, o.Factory, &o.Nemesis, errOut)
	if err != nil {
		return err
	}
	if pods != nil {
		defer pods.Close()
	}
	if err := o.Nemesis.Prepare(o.Factory, o.State.Dir, func(f string, a ...any) { fmt.Fprintf(errOut, f+"\n", a...) }); err != nil {
		return err
	}
	// The app's Redis answers before any load, or the run does not begin.
	resque, closeResque, err := o.Resque.Open(ctx, o.Factory, o.Config.Profile)
	if err != nil {
		return err
	}
	defer closeResque()
	// Open every output file before sending anything: a bad path fails now, not after the load.
	files, err := cmdutil.CreateFiles(o.History, o.Report, o.JUnit, o.HTML)
	if err != nil {
		return err
	}
	defer files.Close()
	d := pstress.Deps{Now: o.Factory.Now, Nemesis: o.Nemesis.Plan, Leftovers: o.Nemesis.Leftovers, ResqueFailed: resque}
	o.Workload.Wire(o.Factory, pods, &d)
	if d.State, err = o.State.Reader(o.Factory); err != nil {
		return err
	}
	if fh := files[o.History]; fh != nil {
		d.History = fh
	}
	// A second Ctrl-C exits at once: say what that leaves undone at the phase the run is in.
	var phase atomic.Value
	phase.Store(pstress.PhaseSetup)
	defer o.Factory.Interrupts.SetUndone(func() string { return undone(phase.Load().(string), o.History) })()
	if o.Fleets != nil {
		fl, left, stop, err := o.Fleets.Start(ctx, o.Config, o.Config.Kind().Records || o.History != "", errOut)
		if err != nil {
			return err
		}
		if fl != nil {
			defer stop()
			defer o.Factory.Interrupts.SetUndone(func() string { return undone(phase.Load().(string), o.History) + "; " + left() })()
			d.Fleet = fl
		}
	}
	var bar *progressbar.ProgressBar
	d.Observer = pstress.Observer{
		Phase: func(p, line string) {
			phase.Store(p)
			if line != "" {
				output.Fprintw(errOut, line, "", "  ")
			}
		},
		Notice: func(line string) { output.Fprintw(errOut, "notice: "+shared.Settings.Text(line), "", "  ") },
		Load:   func(total int64) { bar = output.ProgressBar(errOut, o.IO.IsStderrTTY(), total) },
		Progress: func(n int64) {
			if bar != nil {
				_ = bar.Add64(n)
			}
		},
	}
	rep, err := pstress.Run(ctx, o.Config, d)
	if bar != nil {
		_ = bar.Finish()
		fmt.Fprintln(errOut)
	}
	if err != nil {
		var ce *pstress.ConfigError
		if errors.As(err, &ce) {
			return cmdutil.Usage("%w", err)
		}
		return err
	}
	if rep.StopReason == "interrupted" {
		output.Fprintw(errOut, "interrupted: the history and report hold what this run has; the verdict is partial", "", "  ")
	}
	return shared.Finish(o.IO, o.Format, rep, files, o.Report, o.JUnit, o.HTML)
}

// undone says what exiting now leaves undone, by the run's phase.
func undone(phase, hist string) string {
	where := "no history was asked for"
	if hist != "" {
		where = "the history " + hist + " may end mid-line (osctl stress judge reads what it holds as a partial run)"
	}
	switch phase {
	case pstress.PhaseSetup:
		return "the setup was cut: what it created stays on the target; no report was written"
	case pstress.PhaseLoad, pstress.PhaseFollow:
		return "the load was cut: no state was read and no report written; " + where
	case pstress.PhaseSettle, pstress.PhaseRead:
		return "the state was not read: no verdict and no report; " + where
	}
	return "the report and its files were not written"
}
