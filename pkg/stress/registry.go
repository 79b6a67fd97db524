package stress

import (
	"context"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// runProfile is what this package does for one profile: its load and its stage after the load.
// What the profile is and can do (its capabilities, which detect, report and the CLI ask) is its
// history.Profile.
type runProfile struct {
	// source is the load: the requests a Sender sends, and whether they may go out from the
	// event loops.
	source func(w *Sender, ctx context.Context, s *Setup, rec profile.Recorder, obs LoadObserver) (attack.Source, bool, error)
	// stage is the part of the run after the load (its header fields set on the way).
	stage func(r *runner, ctx context.Context) (stage, error)
}

// registry holds each profile's run, by name: the one place a profile's load and stage are
// chosen. TestProfilesAgree checks it against history.Profiles.
var registry = map[string]runProfile{
	ProfileOpenStudio: {source: (*Sender).openStudioSource, stage: func(r *runner, _ context.Context) (stage, error) { return r.openStudio(), nil }},
	ProfileJobs:       {source: (*Sender).jobsSource, stage: func(r *runner, ctx context.Context) (stage, error) { return r.jobs(ctx) }},
	ProfileHTTP:       {source: (*Sender).httpSource, stage: func(r *runner, _ context.Context) (stage, error) { return r.httpLoad(), nil }},
}
