package stress

import (
	"context"
	"fmt"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// osStage is the openstudio profile's run: setup, the load, then settle, read-backs and the
// state of the volume.
type osStage struct {
	r *runner
	p *profile.OpenStudio
}

func (r *runner) openStudio() *osStage {
	cfg := r.cfg
	var starts []int
	for i, t := range r.targets {
		allowed := t.Status.Sandbox || cfg.AllowStart
		if allowed {
			starts = append(starts, i)
		}
		r.hdr.TargetInfo = append(r.hdr.TargetInfo, targetInfo(t, allowed))
	}
	if cfg.Mix.Start > 0 && len(starts) < len(r.targets) {
		if len(starts) == 0 {
			r.notice("start left out of the mix: no target says it is the sandbox (GET /status), and a start launches simulations on a real server; pass --allow-start to send it anyway")
		} else {
			r.notice("start goes only to the %d of %d targets that say they are the sandbox", len(starts), len(r.targets))
		}
	}
	p := &profile.OpenStudio{Run: cfg.Run, Targets: r.targets, Requests: cfg.Requests, Analyses: cfg.Analyses, Project: cfg.Project, Mix: cfg.Mix,
		StartTargets: starts, Client: r.d.Client, Record: r.rec.record, Now: r.d.Now, TailWait: cfg.WorkerWait, Concurrency: cfg.Concurrency}
	if cfg.WorkerWait == 0 {
		p.TailFraction = -1
	}
	r.hdr.Analyses, r.hdr.Project, r.hdr.Mix = cfg.Analyses, cfg.Project, p.EffectiveMix()
	return &osStage{r: r, p: p}
}

func (s *osStage) setup(ctx context.Context) error {
	s.r.d.Observer.phase(PhaseSetup, fmt.Sprintf("run %s: creating the project and %d analyses", s.r.cfg.Run, s.p.Analyses))
	return s.p.Setup(ctx)
}

func (s *osStage) source(context.Context) attack.Source { return s.p.Source() }

func (s *osStage) after(ctx context.Context, partial bool, f *history.Footer) (*snapshot.State, bool, error) {
	r, cfg := s.r, s.r.cfg
	for _, w := range s.p.TailReleases() {
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
		sr := s.p.Settle(ctx, cfg.SettleTimeout, time.Second, fp)
		settled, f.SettleWait = sr.Quiet, sr.Waited.Seconds()
		if sr.Queued > 0 {
			r.notice("%d of %d jobs were still queued after --settle-timeout %s: their extractions had not run or failed, and are not judged", sr.Queued, sr.Jobs, cfg.SettleTimeout)
		}
		if !sr.Quiet {
			r.notice("the files were still changing after --settle-timeout %s", cfg.SettleTimeout)
		}
	}
	r.d.Observer.phase(PhaseRead, "reading the records back and the state of the volume")
	s.p.Readback(ctx)
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
