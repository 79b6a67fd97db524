// Package jobs is osctl stress's jobs profile: a burst of submits to a job API (elb-openapi, or
// the sandbox's), each acknowledged job followed until it ends, judged on the service-wide
// ceiling and on stranded, invisible and lost jobs (docs/architecture.md, the stress contract,
// 7). It is a stress.Profile; pkg/stress/profiles registers it.
package jobs

import (
	"context"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/cleanup"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// Profile is the jobs profile.
type Profile struct{}

// Kind implements stress.Profile.
func (Profile) Kind() history.Profile { return history.Jobs }

// Defaults implements stress.Profile: no Options are DefaultOptions; a zero Poll or JobTimeout
// is the default's.
func (Profile) Defaults(c *stress.Config) { c.Options = OptionsOf(*c).withDefaults() }

// Check implements stress.Profile: its Options.
func (Profile) Check(c stress.Config) error { return OptionsOf(c).check() }

// Stage implements stress.Profile: the ceiling (MaxActive, or the sandbox's GET /status), the
// body, and one authenticated GET /v1/jobs per target before anything is submitted.
func (Profile) Stage(ctx context.Context, e *stress.StageEnv) (stress.Stage, error) {
	return newStage(ctx, e)
}

// Load implements stress.Profile.
func (Profile) Load(e stress.SendEnv) stress.Loader { return &load{e: e} }

// Rules implements stress.Judger: the ceiling, stranded, invisible and lost jobs.
func (Profile) Rules() detect.Rules { return Rules{} }

// Cleanup implements stress.Cleaner: the run's jobs.
func (Profile) Cleanup() cleanup.PlanFunc { return Plan }
