// Package openstudio is osctl stress's openstudio profile: zip uploads, starts, data points and
// result files against OpenStudio Server (or the sandbox), judged on the files the run left on
// the shared volume (docs/architecture.md, the stress contract). It is a stress.Profile;
// pkg/stress/profiles registers it.
package openstudio

import (
	"context"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/cleanup"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// Profile is the openstudio profile.
type Profile struct{}

// Kind implements stress.Profile.
func (Profile) Kind() history.Profile { return history.OpenStudio }

// Defaults implements stress.Profile: no Options are DefaultOptions; a zero Mix is
// profile.DefaultMix, and Analyses is Requests/100, at least 1 and at most 100.
func (Profile) Defaults(c *stress.Config) { c.Options = OptionsOf(*c).withDefaults(c.Requests) }

// Check implements stress.Profile: its Options.
func (Profile) Check(c stress.Config) error { return OptionsOf(c).check() }

// Stage implements stress.Profile.
func (Profile) Stage(_ context.Context, e *stress.StageEnv) (stress.Stage, error) {
	return newStage(e), nil
}

// Load implements stress.Profile.
func (Profile) Load(e stress.SendEnv) stress.Loader { return &loader{e: e} }

// Rules implements stress.Judger: the files on the volume.
func (Profile) Rules() detect.Rules { return Rules{} }

// Cleanup implements stress.Cleaner: the run's analyses and files.
func (Profile) Cleanup() cleanup.PlanFunc { return Plan }
