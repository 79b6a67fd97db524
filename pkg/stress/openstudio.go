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
			r.notice("start left out of the mix: no target says it is the sandbox (GET /status), and a start launches simulations on a real server; pass --allow-start to send it anyway")
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
	for _, w := range l.Tail {
		f.WorkerWaits = append(f.WorkerWaits, history.WorkerWait{AtS: w.At.Seconds(), WaitedS: w.Waited.Seconds(), Worker: w.Worker, JobsRan: w.JobsRan})
		if !w.Worker {
			r.notice("a held-back part of the load waited --worker-wait %s and saw no worker take a job: uploads may not have overlapped an extraction", cfg.WorkerWait)
		}
	}
	dirs := func() []string { return detect.Dirs(&history.History{Header: r.hdr, Records: r.rec.records()}) }
	settled := !partial
	if !partial && cfg.SettleTimeout > 0 {
		r.d.Observer.phase(PhaseSettle, fmt.Sprintf("waiting up to %s for the analyses' jobs to leave \"queued\" and the files to settle", cfg.SettleTimeout))
		var fp func(context.Context) (string, error)
		if fr, ok := r.d.State.(Fingerprinter); ok {
			ds := dirs()
			fp = func(ctx context.Context) (string, error) { return fr.Fingerprint(ctx, ds) }
		}
		sr := profile.SettleWith(ctx, cfg.SettleTimeout, time.Second, r.d.Now, r.fleet.JobCounts, fp)
		settled, f.SettleWait = sr.Quiet, sr.Waited.Seconds()
		if sr.Queued > 0 {
			r.notice("%d of %d jobs were still queued after --settle-timeout %s: their extractions had not run or failed, and are not judged", sr.Queued, sr.Jobs, cfg.SettleTimeout)
		}
		if !sr.Quiet {
			r.notice("the files were still changing after --settle-timeout %s", cfg.SettleTimeout)
		}
	}
	r.d.Observer.phase(PhaseRead, "reading the records back and the state of the volume")
	if err := r.fleet.Readback(ctx, profile.PlanReadback(*r.setup.OpenStudio, r.rec.records()), r.rec.record); err != nil {
		r.notice("the records were not read back: %v", err)
	}
	if r.d.State == nil {
		r.notice("no --state-dir or --state-pod: the files were not judged, only the records")
		return nil, settled, nil
	}
	f.StateRead = r.d.Now().UTC()
	st, err := r.d.State.Read(ctx, dirs())
	if err != nil {
		return nil, settled, fmt.Errorf("reading the state: %v", err)
	}
	return st, settled, nil
}
