// Package httpload is osctl stress's http profile: each target URL is a route, sent as wrk sends
// it; its verdict is the attacker's counts alone, and it keeps no records. It is a
// stress.Profile; pkg/stress/profiles registers it. (Its name leaves net/http unshadowed.)
package httpload

import (
	"context"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// Profile is the http profile.
type Profile struct{}

// Kind implements stress.Profile.
func (Profile) Kind() history.Profile { return history.HTTP }

// Defaults implements stress.Profile: no Options are DefaultOptions; an empty Method is GET.
func (Profile) Defaults(c *stress.Config) {
	o := OptionsOf(*c)
	if o.Method == "" {
		o.Method = DefaultOptions().Method
	}
	c.Options = o
}

// Check implements stress.Profile: the shared checks are all it needs (any method goes).
func (Profile) Check(stress.Config) error { return nil }

// Stage implements stress.Profile: the header says what each target is; nothing follows the
// load.
func (Profile) Stage(_ context.Context, e *stress.StageEnv) (stress.Stage, error) {
	for _, t := range e.Targets() {
		e.Header.TargetInfo = append(e.Header.TargetInfo, stress.TargetInfo(t, false))
	}
	return stage{}, nil
}

// Load implements stress.Profile.
func (Profile) Load(e stress.SendEnv) stress.Loader { return load{e: e} }

type stage struct{}

// After implements stress.Stage: nothing to settle or read.
func (stage) After(context.Context, bool, *stress.Load, *history.Footer) (*snapshot.State, bool, error) {
	return nil, true, nil
}

// load is the http load in one Sender: the routes.
type load struct{ e stress.SendEnv }

// Setup implements stress.Loader: the http profile has none.
func (load) Setup(context.Context, *stress.Setup) error { return nil }

// Source implements stress.Loader: status-only requests to http:// targets go out from the
// event loops, the way wrk sends them.
func (l load) Source(_ context.Context, _ *stress.Setup, rec profile.Recorder, _ stress.LoadObserver) (attack.Source, bool, error) {
	e, cfg := l.e, l.e.Config
	o := OptionsOf(cfg)
	p := &Routes{Run: cfg.Run, Targets: e.Targets, Method: o.Method, Header: cfg.Header, Body: o.Body, Requests: int64(cfg.Requests),
		Now: e.Now, Shard: e.Shard}
	if rec != nil {
		p.Record = e.Record
	}
	return p.Source(), p.EventLoopOK(), nil
}

// Finish implements stress.Loader: nothing follows the requests.
func (load) Finish(context.Context, *stress.Load, stress.LoadObserver) {}
