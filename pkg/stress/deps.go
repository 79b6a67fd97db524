package stress

import (
	"context"
	"io"
	"sync"
	"time"

	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/report"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// Deps are what Run talks to and reports through. Every field may be left zero.
type Deps struct {
	// Conns carries the load: one connection per worker (attack.NewConns by default).
	Conns attack.Client
	// Client carries the probes, setup, read-backs and job polls (attack.NewClient by default).
	Client profile.Doer
	// State reads the run's part of the volume (nil: the files are not judged, only the records).
	// A State that is also a Fingerprinter lets the settle step see the files stop changing.
	State snapshot.Reader
	// History receives the run's history as JSON lines (nil: kept in memory only).
	History io.Writer
	// Workload reads the Deployment under test at the end of the run (nil: none).
	Workload func(ctx context.Context) (*history.Workload, error)
	// Tier reads the capacity of the pods the load reaches, before the load (nil: not read; a
	// Config with ConcurrencyAuto needs it). ReadTier and TierOfPods make one.
	Tier func(ctx context.Context) (*Tier, error)
	// Now is the clock (time.Now by default).
	Now func() time.Time
	// Observer hears how the run goes.
	Observer Observer
	// Fleet sends what the run sends to the targets (nil: a Sender in this process, on Conns and
	// Client). pkg/stress/workers is a fleet of load workers in pods.
	Fleet Fleet
	// Nemesis injects its faults into the target while the load runs (nil: none). Its
	// Injector's Check is the caller's, before Run: a fault the target cannot take is a usage error.
	Nemesis *nemesis.Plan
	// Leftovers reads, after the load of a run with faults, what a dead holder may have left in
	// the run's directories (relative to the state directory) and on the target's Redis (nil:
	// not read). It never changes the verdict.
	Leftovers func(ctx context.Context, dirs []string) *history.Leftovers
	// Pods, when set, are the targets (Config.Targets is then left empty): a workload's ready
	// pods, each through a port-forward, re-listed every PodsEvery (default a second) while the
	// load runs. Not with a Fleet, nor with the http profile.
	Pods      PodTargets
	PodsEvery time.Duration
	// ResqueFailed, when set, is where the openstudio profile reads the failed extractions of the
	// run's analyses after the load, in place of a sandbox target's GET /status/failed_jobs: the
	// app's Redis, as a real OpenStudio Server keeps them nowhere else (nil: the sandbox's).
	ResqueFailed *ResqueFailed
}

// Fingerprinter is a cheap digest of the run's files, for telling when they stop changing.
type Fingerprinter interface {
	Fingerprint(ctx context.Context, dirs []string) (string, error)
}

// Phases of a run, in order.
const (
	PhaseSetup  = "setup"  // probing the targets, creating the project and analyses
	PhaseLoad   = "load"   // sending the load
	PhaseFollow = "follow" // following the jobs until they end
	PhaseSettle = "settle" // waiting for the target's jobs and files to settle
	PhaseRead   = "read"   // reading the records back and the state of the volume
	PhaseJudge  = "judge"  // judging and writing the history
)

// Observer hears how a run goes; every field may be nil. Phase is called as each phase begins,
// with a line that says what it does; Notice for what the report's notices say; Load when the
// load begins (total is 0 when bounded by a duration), Done once per load request, or, when set,
// Progress with how many more ended (load workers report them in batches).
type Observer struct {
	Phase    func(phase, line string)
	Notice   func(line string)
	Load     func(total int64)
	Done     func()
	Progress func(n int64)
}

// done is the load's progress as a LoadObserver hears it.
func (o Observer) done() func(n int64) {
	switch {
	case o.Progress != nil:
		return o.Progress
	case o.Done != nil:
		return func(n int64) {
			for ; n > 0; n-- {
				o.Done()
			}
		}
	}
	return nil
}

func (o Observer) phase(p, line string) {
	if o.Phase != nil {
		o.Phase(p, line)
	}
}

// recorder writes the history as records come (when asked to) and keeps them for the verdict
// when it needs them (the openstudio and jobs profiles); otherwise (the http profile) it keeps
// none, and with a history file folds each load request into fold instead, as judge does when it
// reads the file back.
type recorder struct {
	mu   sync.Mutex
	w    *history.Writer
	keep bool
	recs []history.Record
	fold *report.LoadFold
}

// record writes rec and keeps it under one lock, so that the records kept are in the order of the
// file: the judge sees the requests of an object in that order, and a finding names the same
// ones live and offline.
func (r *recorder) record(rec *history.Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.w != nil {
		_ = r.w.Write(rec)
	}
	if rec.Kind == history.KindHeader || rec.Kind == history.KindFooter {
		return
	}
	switch {
	case r.keep:
		r.recs = append(r.recs, rec.WallClock()) // the times the history file holds: the judge's report is the same
	case r.fold != nil:
		wc := rec.WallClock()
		r.fold.Add(&wc)
	}
}

func (r *recorder) records() []history.Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.recs
}

// flush writes the footer and flushes the history file.
func (r *recorder) flush(f *history.Footer) error {
	r.record(&history.Record{Kind: history.KindFooter, Footer: f})
	if r.w == nil {
		return nil
	}
	return r.w.Flush()
}
