package openstudio

import (
	"context"
	"fmt"
	"time"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// stage is what follows the openstudio profile's load: settle, read-backs and the state of the
// volume.
type stage struct{ e *stress.StageEnv }

// newStage writes the profile's header fields: what each target said and whether starts may go
// to it, the analyses, the project and the mix in effect. The setup follows.
func newStage(e *stress.StageEnv) *stage {
	cfg, targets, hdr := OptionsOf(e.Config()), e.Targets(), e.Header
	starts := startTargets(targets, cfg.AllowStart)
	for _, t := range targets {
		allowed := t.Status.Sandbox || cfg.AllowStart
		hdr.TargetInfo = append(hdr.TargetInfo, stress.TargetInfo(t, allowed))
	}
	if cfg.Mix.Start > 0 && len(starts) < len(targets) {
		if len(starts) == 0 {
			e.Notice("start left out of the mix: no target says it is the sandbox (GET /status), and a start launches simulations on a real server; pass {AllowStart} to send it anyway")
		} else {
			e.Notice("start goes only to the %d of %d targets that say they are the sandbox", len(starts), len(targets))
		}
	}
	mix := (&Load{Mix: cfg.Mix, StartTargets: starts}).EffectiveMix()
	hdr.Analyses, hdr.Project, hdr.Mix = cfg.Analyses, cfg.Project, mix
	e.Phase(stress.PhaseSetup, fmt.Sprintf("run %s: creating the project and %d analyses", e.Config().Run, cfg.Analyses))
	return &stage{e: e}
}

// After implements stress.Stage: it waits for the run's jobs and files to settle, reads the
// failed extractions, reads the records back and reads the state of the volume.
func (s *stage) After(ctx context.Context, partial bool, l *stress.Load, f *history.Footer) (*snapshot.State, bool, error) {
	e, cfg, d := s.e, OptionsOf(s.e.Config()), s.e.Deps()
	seen, err := stress.PayloadOf[loadSeen](l)
	if err != nil {
		e.Notice("what the load saw of the background workers was not read: %v", err)
	}
	f.BackgroundWaits = append(f.BackgroundWaits, seen.BackgroundWaits...)
	for _, w := range seen.BackgroundWaits {
		if !w.Taken {
			e.Notice("a held-back part of the load waited {BackgroundWait} %s and saw no background worker take a job: uploads may not have overlapped an extraction", cfg.BackgroundWait)
		}
	}
	dirs := func() []string { return Dirs(&history.History{Header: *e.Header, Records: e.Records()}) }
	settled := !partial
	if !partial && cfg.SettleTimeout > 0 {
		so := profile.SettleOptions{Ceiling: cfg.SettleTimeout, Quiet: cfg.SettleQuiet}.WithDefaults()
		e.Phase(stress.PhaseSettle, fmt.Sprintf("waiting for the analyses' jobs to leave \"queued\" and the files to settle: while they make progress, up to %s; stopping after %s without progress",
			cfg.SettleTimeout, so.Quiet))
		var fp func(context.Context) (string, error)
		if fr, ok := d.State.(stress.Fingerprinter); ok {
			ds := dirs()
			fp = func(ctx context.Context) (string, error) { return fr.Fingerprint(ctx, ds) }
		}
		sr := profile.Settle(ctx, so, d.Now, e.Fleet().JobCounts, fp)
		settled, f.SettleWait, f.SettleStopped = sr.Quiet, sr.Waited.Seconds(), sr.Stopped
		e.Notice("%s", settleNotice(sr, cfg.SettleTimeout, so.Quiet))
		if !sr.Quiet {
			e.Notice("the files were still changing when the wait for them stopped (%s)", sr.Stopped)
		}
	}
	failedJobs(ctx, e, f)
	e.Phase(stress.PhaseRead, "reading the records back and the state of the volume")
	if st, err := setupState(e.Setup()); err != nil {
		e.Notice("the records were not read back: %v", err)
	} else if err := e.Fleet().Readback(ctx, profile.PlanReadback(st, e.Records()), e.Record); err != nil {
		e.Notice("the records were not read back: %v", err)
	}
	if d.State == nil {
		e.Notice("no {StateDir} or {StatePod}: the files were not judged, only the records")
		return nil, settled, nil
	}
	f.StateRead = d.Now().UTC()
	st, err := d.State.Read(ctx, dirs())
	if err != nil {
		return nil, settled, fmt.Errorf("reading the state: %v", err)
	}
	return st, settled, nil
}

// settleNotice says how long the run waited for the target after the load, and why it stopped.
func settleNotice(sr profile.SettleResult, ceiling, quiet time.Duration) string {
	w := sr.Waited.Round(time.Second)
	switch sr.Stopped {
	case profile.SettleDone:
		return fmt.Sprintf("settled after %s: no job of the run's %d was queued and the files had stopped changing", w, sr.Jobs)
	case profile.SettleStalled:
		return fmt.Sprintf("stopped waiting after %s: no job left \"queued\" and the files did not change for %s; %d of %d jobs stay queued (their extractions failed or never ran) and are not judged",
			w, quiet, sr.Queued, sr.Jobs)
	case profile.SettleCeiling:
		return fmt.Sprintf("stopped waiting at the ceiling {SettleTimeout} %s while the jobs still made progress: %d of %d jobs were still queued and are not judged", ceiling, sr.Queued, sr.Jobs)
	default:
		return fmt.Sprintf("stopped waiting after %s (%s): %d of %d jobs were still queued and are not judged", w, sr.Stopped, sr.Queued, sr.Jobs)
	}
}
