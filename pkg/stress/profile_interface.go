package stress

import (
	"context"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/cleanup"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/report"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// A Profile is one workload of osctl stress: a service's load, what follows it, and how its runs
// are judged. Run, Judge, the cleanup and the load workers take any Profile by value, as vegeta's
// attacker takes any Targeter: a profile defined in another package (or a test) plugs in with
// Register, and nothing here names one. What a profile may do beyond this (its verdict, its
// report section, its cleanup) it says by implementing Judger, Sectioner or Cleaner.
type Profile interface {
	// Kind is the profile's name (Config.Profile, the history's header) and its capabilities,
	// which the record, the verdict, the report and the cleanup ask.
	Kind() history.Profile
	// Defaults fills what of c is the profile's own: its Options (nil: its defaults; a profile
	// with options of its own also implements OptionsDecoder, for load workers).
	Defaults(c *Config)
	// Check says what in c (its zero fields filled) the profile cannot run with: a *ConfigError
	// (FieldErrorf names the field, or the option by its Go name).
	Check(c Config) error
	// Stage prepares the part of a run after the load, before anything is sent: it writes its
	// fields of the history's header (e.Header) and may refuse the run.
	Stage(ctx context.Context, e *StageEnv) (Stage, error)
	// Load is the profile's part of one Sender (a local run's, or a load worker's): its setup
	// and its load.
	Load(e SendEnv) Loader
}

// A Stage is a profile's part of a run after the load.
type Stage interface {
	// After runs once the load ended (partial: it was cut short): it settles and reads what the
	// run left, writing what it saw into f. It returns the state (nil when not read) and whether
	// the target had settled.
	After(ctx context.Context, partial bool, l *Load, f *history.Footer) (*snapshot.State, bool, error)
}

// A Loader is a profile's load in one Sender.
type Loader interface {
	// Setup creates what the load needs into s (called when Kind().Setup; its state travels to
	// load workers in s).
	Setup(ctx context.Context, s *Setup) error
	// Source is the load: the requests, which record themselves to the SendEnv's Record, and
	// whether they may go out from the attacker's event loops. rec is nil when nothing is
	// recorded.
	Source(ctx context.Context, s *Setup, rec profile.Recorder, obs LoadObserver) (attack.Source, bool, error)
	// Finish adds to l what the profile saw of its load once the requests ended (ctx: the
	// load's), following what the load started.
	Finish(ctx context.Context, l *Load, obs LoadObserver)
}

// SendEnv is what a profile's Loader sends through: one Sender's.
type SendEnv struct {
	Config  Config
	Targets []profile.Target
	// Client carries everything but the load requests (setup, polls, read-backs).
	Client profile.Doer
	// Record goes to the recorder of the Sender's call under way.
	Record profile.Recorder
	Now    func() time.Time
	// Concurrency is the Sender's part of the run's; Shard its part of the load.
	Concurrency int
	Shard       profile.Shard
	// Pool, when set, holds the live targets (Deps.Pods).
	Pool *profile.Pool
}

// A Judger is a profile with a verdict of its own beyond the shared one: its findings and what
// its clean verdict needs, live and offline alike.
type Judger interface {
	Rules() detect.Rules
}

// A Sectioner is a profile with a section of its own in the report (its JSON "section").
type Sectioner interface {
	Section(h *history.History, r *report.Report) any
}

// A Reporter is a profile with its own part of the report (report.Part, which its Judger's
// rules measure): NewPart is an empty one, which a report of its runs is read into.
type Reporter interface {
	NewPart() report.Part
}

// A Cleaner is a profile whose runs leave something that osctl stress cleanup removes.
type Cleaner interface {
	Cleanup() cleanup.PlanFunc
}

// JobCounter is a Loader whose target runs jobs of the run that the settle step waits on.
type JobCounter interface {
	JobCounts(ctx context.Context) (jobs, queued int)
}

// ReadBacker is a Loader that reads the run's records back through the API.
type ReadBacker interface {
	Readback(ctx context.Context, plan profile.ReadbackPlan) error
}

// Checker is a Loader that checks the targets before anything is sent (a token, say).
type Checker interface {
	Check(ctx context.Context) error
}
