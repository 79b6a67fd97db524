package openstudio

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// loader is the openstudio load in one Sender: its setup (the project, the analyses and their
// seeds), the load, the settle step's job counts and the read-backs.
type loader struct {
	e  stress.SendEnv
	os *Load
}

func (l *loader) profile() *Load {
	e, cfg := l.e, l.e.Config
	o := OptionsOf(cfg)
	p := &Load{Run: cfg.Run, Targets: e.Targets, Requests: cfg.Requests, Analyses: o.Analyses, Project: o.Project, Mix: o.Mix,
		StartTargets: startTargets(e.Targets, o.AllowStart), Client: e.Client, Record: e.Record, Now: e.Now, TailWait: o.BackgroundWait,
		Concurrency: e.Concurrency, Shard: e.Shard, Pool: e.Pool}
	if o.BackgroundWait == 0 {
		p.TailFraction = -1
	}
	return p
}

// Setup implements stress.Loader: it creates the project (unless given), the analyses and
// their seeds.
func (l *loader) Setup(ctx context.Context, s *stress.Setup) error {
	l.os = l.profile()
	if err := l.os.Setup(ctx); err != nil {
		return err
	}
	b, err := json.Marshal(l.os.SetupState())
	if err != nil {
		return err
	}
	s.Payload = b
	return nil
}

// setupState is what the openstudio setup created, from the run's Setup.
func setupState(s *stress.Setup) (profile.SetupState, error) {
	var st profile.SetupState
	if s == nil || len(s.Payload) == 0 {
		return st, fmt.Errorf("the openstudio load needs its setup")
	}
	if err := json.Unmarshal(s.Payload, &st); err != nil {
		return st, fmt.Errorf("the openstudio setup: %v", err)
	}
	return st, nil
}

// Source implements stress.Loader; a load worker starts from the setup the coordinator made.
func (l *loader) Source(_ context.Context, s *stress.Setup, _ profile.Recorder, obs stress.LoadObserver) (attack.Source, bool, error) {
	if l.os == nil {
		st, err := setupState(s)
		if err != nil {
			return nil, false, err
		}
		l.os = l.profile()
		l.os.Restore(st)
	}
	l.os.Sending = obs.Sending
	return l.os.Source(), false, nil
}

// Finish implements stress.Loader: how the held-back parts of the load waited.
func (l *loader) Finish(_ context.Context, ld *stress.Load, _ stress.LoadObserver) {
	if l.os != nil {
		b, err := json.Marshal(loadSeen{BackgroundWaits: l.os.BackgroundWaits()})
		if err == nil {
			ld.Payload = b
		}
	}
}

// JobCounts implements stress.JobCounter.
func (l *loader) JobCounts(ctx context.Context) (jobs, queued int) {
	if l.os == nil {
		return 0, 0
	}
	return l.os.JobCounts(ctx)
}

// Readback implements stress.ReadBacker.
func (l *loader) Readback(ctx context.Context, plan profile.ReadbackPlan) error {
	if l.os == nil {
		return fmt.Errorf("no openstudio load to read back")
	}
	l.os.Readback(ctx, plan)
	return nil
}

// startTargets are the indexes of the targets that may receive starts: sandboxes, or any with
// AllowStart.
func startTargets(ts []profile.Target, allow bool) []int {
	var out []int
	for i, t := range ts {
		if t.Status.Sandbox || allow {
			out = append(out, i)
		}
	}
	return out
}
