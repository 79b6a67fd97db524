package stress

import (
	"context"
	"encoding/json"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// A Fleet sends everything of a run that talks to the targets: the probe, the setup, the load,
// the polls of the settle step and the read-backs. Run uses a Sender in this process unless
// Deps.Fleet is set (pkg/stress/workers drives load workers in pods, each a Sender); the rest of
// the run (the history, the files settling, the state, the verdict) is the same either way.
// Records go to the Recorder each call is given, and must be safe to pass concurrently.
type Fleet interface {
	// Probe asks every target what it is (GET /status; not for the http profile, whose targets
	// are routes). A target that does not answer is an error.
	Probe(ctx context.Context) (*Probe, error)
	// Check runs the profile's check of the targets before anything is sent: its Loader's, when
	// a Checker (a refused token is a *profile.AuthError); nil for another.
	Check(ctx context.Context) error
	// Setup creates what the load needs (the profile's Loader.Setup, when its Kind has a setup).
	Setup(ctx context.Context, rec profile.Recorder) (*Setup, error)
	// Load sends the load from the setup and says how it went. When ctx ends the load stops and
	// Load returns what was sent.
	Load(ctx context.Context, s *Setup, rec profile.Recorder, obs LoadObserver) (*Load, error)
	// JobCounts says how many jobs of the run the target lists, and how many are still queued:
	// the profile's Loader's, when a JobCounter (0, 0 for another).
	JobCounts(ctx context.Context) (jobs, queued int)
	// Readback reads the run's records back through the API: the profile's Loader's, when a
	// ReadBacker (an error for another).
	Readback(ctx context.Context, plan profile.ReadbackPlan, rec profile.Recorder) error
}

// Probe is what the targets said they are, in the order of Config.Targets (zero for the http
// profile), and the open-files limit the load runs with.
type Probe struct {
	Targets   []profile.ServerStatus `json:"targets"`
	FileLimit uint64                 `json:"open_files_limit,omitempty"`
	Notices   []string               `json:"notices,omitempty"`
}

// Setup is what the load starts from: what the targets said, and what the profile's setup
// created (Loader.Setup), as JSON in Payload: it travels to load workers as it is, and the
// profile reads it back.
type Setup struct {
	Targets []profile.ServerStatus `json:"targets"`
	Payload json.RawMessage        `json:"payload,omitempty"`
}

// Load is how the load went.
type Load struct {
	Stats *attack.Stats
	// Payload is what the profile saw of its load, as JSON: its Loader.Finish writes it, its
	// Stage reads it. It travels from load workers as it is, one per worker, and the profile's
	// LoadMerger makes one of them.
	Payload json.RawMessage
	Notices []string
	// Workers are the load workers' own figures (osctl stress --workers; nil for one process),
	// and Lost says why some of them did not finish (the run is then partial).
	Workers []history.LoadWorker
	Lost    string
}

// A LoadMerger is a Profile whose Load payloads, one per load worker, merge into one (without
// it, the first worker's stands for all).
type LoadMerger interface {
	MergeLoad(parts []json.RawMessage) (json.RawMessage, error)
}

// LoadObserver hears how the load goes. Done is called with how many more load requests ended
// (one at a time here, in batches from load workers); Sending with each request's record as it
// is about to be sent (openstudio and jobs), Phase as following the jobs begins. Every field may
// be nil.
type LoadObserver struct {
	Done    func(n int64)
	Sending profile.Recorder
	Phase   func(phase, line string)
}
