package stress

import (
	"context"
	"fmt"
	"time"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// osStage is what follows the openstudio profile's load: settle, read-backs and the state of the
// volume.
type osStage struct{ r *runner }

func (r *runner) openStudio() *osStage {
	cfg := r.cfg
	starts := startTargets(r.targets, cfg.AllowStart)
	for i, t := range r.targets {
		allowed := t.Status.Sandbox || cfg.AllowStart
		r.hdr.TargetInfo = append(r.hdr.TargetInfo, targetInfo(r.targets[i], allowed))
	}
	if cfg.Mix.Start > 0 && len(starts) < len(r.targets) {
		if len(starts) == 0 {
			r.notice("start left out of the mix: no target says it is the sandbox (GET /status), and a start launches simulations on a real server; pass {AllowStart} to send it anyway")
		} else {
			r.notice("start goes only to the %d of %d targets that say they are the sandbox", len(starts), len(r.targets))
		}
	}
	mix := (&profile.OpenStudio{Mix: cfg.Mix, StartTargets: starts}).EffectiveMix()
	r.hdr.Analyses, r.hdr.Project, r.hdr.Mix = cfg.Analyses, cfg.Project, mix
	return &osStage{r: r}
}

func (s *osStage) after(ctx context.Context, partial bool, l *Load, f *history.Footer) (*snapshot.State, bool, error) {
	r, cfg := s.r, s.r.cfg
	f.BackgroundWaits = append(f.BackgroundWaits, l.BackgroundWaits...)
	for _, w := range l.BackgroundWaits {
		if !w.Taken {
			r.notice("a held-back part of the load waited {BackgroundWait} %s and saw no background worker take a job: uploads may not have overlapped an extraction", cfg.BackgroundWait)
		}
	}
	dirs := func() []string { return detect.Dirs(&history.History{Header: r.hdr, Records: r.rec.records()}) }
	settled := !partial
	if !partial && cfg.SettleTimeout > 0 {
		quiet := cfg.SettleQuiet
		if quiet <= 0 {
			quiet = profile.DefaultSettleQuiet
		}
		r.d.Observer.phase(PhaseSettle, fmt.Sprintf("waiting for the analyses' jobs to leave \"queued\" and the files to settle: while they make progress, up to %s; stopping after %s without progress",
			cfg.SettleTimeout, quiet))
		var fp func(context.Context) (string, error)
		if fr, ok := r.d.State.(Fingerprinter); ok {
			ds := dirs()
			fp = func(ctx context.Context) (string, error) { return fr.Fingerprint(ctx, ds) }
		}
		sr := profile.Settle(ctx, profile.SettleOptions{Ceiling: cfg.SettleTimeout, Quiet: quiet, Interval: time.Second}, r.d.Now, r.fleet.JobCounts, fp)
		settled, f.SettleWait, f.SettleStopped = sr.Quiet, sr.Waited.Seconds(), sr.Stopped
		r.notice("%s", settleNotice(sr, cfg.SettleTimeout, quiet))
		if !sr.Quiet {
			r.notice("the files were still changing when the wait for them stopped (%s)", sr.Stopped)
		}
	}
	r.failedJobs(ctx, f)
	r.d.Observer.phase(PhaseRead, "reading the records back and the state of the volume")
	if err := r.fleet.Readback(ctx, profile.PlanReadback(*r.setup.OpenStudio, r.rec.records()), r.rec.record); err != nil {
		r.notice("the records were not read back: %v", err)
	}
	if r.d.State == nil {
		r.notice("no {StateDir} or {StatePod}: the files were not judged, only the records")
		return nil, settled, nil
	}
	f.StateRead = r.d.Now().UTC()
	st, err := r.d.State.Read(ctx, dirs())
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
