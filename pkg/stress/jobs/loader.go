package jobs

import (
	"context"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// load is the jobs load in one Sender: the submits, then following every acknowledged job
// until it ends.
type load struct {
	e    stress.SendEnv
	jobs *Submitter
}

func (l *load) profile() *Submitter {
	e, cfg := l.e, l.e.Config
	o := OptionsOf(cfg)
	return &Submitter{Run: cfg.Run, Targets: e.Targets, Requests: cfg.Requests, Client: e.Client, Record: e.Record, Now: e.Now,
		Body: o.Body, Poll: o.Poll, Timeout: o.JobTimeout, Header: cfg.Header, Shard: e.Shard, Pool: e.Pool}
}

// Check implements stress.Checker: GET /v1/jobs with the run's headers on each target (a
// refused token is a *profile.AuthError).
func (l *load) Check(ctx context.Context) error { return l.profile().Check(ctx) }

// Setup implements stress.Loader: the jobs profile has none.
func (l *load) Setup(context.Context, *stress.Setup) error { return nil }

// Source implements stress.Loader: the submits.
func (l *load) Source(ctx context.Context, _ *stress.Setup, _ profile.Recorder, obs stress.LoadObserver) (attack.Source, bool, error) {
	l.jobs = l.profile()
	l.jobs.Sending = obs.Sending
	return l.jobs.Source(ctx), false, nil
}

// Finish implements stress.Loader: it follows the jobs until they end, then reads the
// service's job list once.
func (l *load) Finish(ctx context.Context, ld *stress.Load, obs stress.LoadObserver) {
	if l.jobs == nil {
		return
	}
	if ld.Stats.Stopped != attack.StopInterrupted && obs.Phase != nil {
		obs.Phase(stress.PhaseFollow, "following the jobs until they end")
	}
	l.jobs.Wait()
	seen := loadSeen{Jobs: l.jobs.Summary(), Refused: l.jobs.Refused()}
	ld.Payload = seen.payload()
	if seen.Refused == nil && ctx.Err() == nil {
		l.jobs.ReadList(ctx)
	}
}
