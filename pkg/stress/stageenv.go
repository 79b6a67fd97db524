package stress

import (
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// StageEnv is what a profile's Stage works with: the run under way. Its Header is the history's
// header, written before the load: a profile's Stage sets its fields there.
type StageEnv struct {
	r *runner
	// Header is the run's history header, not yet written.
	Header *history.Header
}

// Config is the run's Config, its zero fields filled.
func (e *StageEnv) Config() Config { return e.r.cfg }

// Targets are the probed targets, in the order of Config.Targets.
func (e *StageEnv) Targets() []profile.Target { return e.r.targets }

// LiveTargets are the targets now: the live pods' (Deps.Pods), else Targets.
func (e *StageEnv) LiveTargets() []profile.Target { return e.r.liveTargets() }

// Fleet sends what the run sends to the targets.
func (e *StageEnv) Fleet() Fleet { return e.r.fleet }

// Setup is what the load started from (nil before the setup).
func (e *StageEnv) Setup() *Setup { return e.r.setup }

// Records are the records kept so far (none for a profile whose Kind keeps none).
func (e *StageEnv) Records() []history.Record { return e.r.rec.records() }

// Record adds a record to the history (a read-back, a followed job).
func (e *StageEnv) Record(rec *history.Record) { e.r.rec.record(rec) }

// Deps are the run's Deps (its clock, client, state reader and observer).
func (e *StageEnv) Deps() Deps { return e.r.d }

// Notice adds a notice to the report (said once).
func (e *StageEnv) Notice(format string, a ...any) { e.r.notice(format, a...) }

// Phase tells the observer a phase begins.
func (e *StageEnv) Phase(phase, line string) { e.r.d.Observer.phase(phase, line) }

// TargetInfo is what a probed target said, for the history's header; startAllowed says whether
// starts may go to it.
func TargetInfo(t profile.Target, startAllowed bool) history.TargetInfo {
	return targetInfo(t, startAllowed)
}
