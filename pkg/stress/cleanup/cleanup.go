// Package cleanup removes what one stress run left, and nothing else: its directories on the
// volume (named after the run id), and what its profile's plan deletes through a service's API
// (a Deleter: the run's analyses, or its jobs). Plan says what would go; Apply does it. Each
// profile's package holds its plan (a PlanFunc, which Register is given).
package cleanup

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// Result is what cleanup did (or, with DryRun, would do).
type Result struct {
	Run     string `json:"run"`
	Profile string `json:"profile,omitempty"`
	DryRun  bool   `json:"dry_run"`
	// Target is the server the analyses are deleted through; empty for the sandbox (whose records
	// go with its state directory) and for a run cleaned up by --run.
	Target   string                     `json:"target,omitempty"`
	Analyses []profile.AnalysisDeletion `json:"analyses,omitempty"`
	// Removed are the run's directories on the volume, and Files how many files they hold.
	Removed []string `json:"removed"`
	Files   int      `json:"files"`
	// Jobs are a jobs run's jobs, and what deleting each did: every job an answer named, and
	// every job the idempotency key of a submit that got no answer names (the service derives the
	// id from the key). Unknown counts the submits that got no answer and carried no key: their
	// jobs' ids are unknown.
	Jobs        []profile.JobDeletion `json:"jobs,omitempty"`
	Deleted     int                   `json:"deleted,omitempty"`
	AlreadyGone int                   `json:"already_gone,omitempty"`
	NotFound    int                   `json:"not_found,omitempty"`
	NotDeleted  int                   `json:"not_deleted,omitempty"`
	Unknown     int                   `json:"unknown_submits,omitempty"`
	// InFlightWait is how long after a submit that got no answer its job was looked for.
	InFlightWait string `json:"in_flight_wait,omitempty"`
	// Skipped are what the history names that the run cannot be shown to have made: left alone.
	Skipped []Skipped `json:"skipped,omitempty"`
}

// Skipped is one object a history names that cleanup leaves alone, and why: a job on a host that
// is not among the run's targets, or whose id the run cannot prove it made; an analysis whose
// record is not the run's.
type Skipped struct {
	Kind   string `json:"kind"` // "job" or "analysis"
	ID     string `json:"id"`
	Target string `json:"target,omitempty"`
	Seq    int64  `json:"seq,omitempty"`
	Reason string `json:"reason"`
}

// Plan is a cleanup ready to be applied: Result says what it would do.
type Plan struct {
	Result
	// Deleter deletes what the run's profile deletes through a service's API (nil: nothing).
	Deleter Deleter `json:"-"`
	root    string
}

// A Deleter is a profile's part of a plan: the run's objects it deletes through a service's API
// (its analyses, its jobs), as its plan found them, beyond the run's directories on the volume.
type Deleter interface {
	// Pending is how many objects of r it would delete.
	Pending(r *Result) int
	// Question is what to ask before p is applied.
	Question(p *Plan) string
	// Delete deletes them, writing into r what it did; an error says what was not done.
	Delete(ctx context.Context, r *Result) error
}

// Root is the volume's root the plan removes directories under ("" when none).
func (p *Plan) Root() string { return p.root }

// Options say where a run's objects are.
type Options struct {
	// StateDir is the volume's root on this machine (for a run whose objects are files).
	StateDir string
	// Target is the server to delete the run's objects through (nil: the run's first target,
	// which its history keeps without a password).
	Target *url.URL
	// Header goes with every API request (X-ELB-API-Token).
	Header http.Header
	// Client sends the requests.
	Client profile.Doer
	// InFlightWait is how long after a submit that got no answer its job is looked for
	// (profile.JobCleanup.InFlightWait).
	InFlightWait time.Duration
}

// Files plans removing one run's directories under the volume root (--run ID --state-dir DIR).
func Files(root, run string) (*Plan, error) {
	if !profile.ValidRunID(run) {
		return nil, fmt.Errorf("run id %q is not one osctl gives (8 hex digits)", run)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("{StateDir} %s is not a directory", root)
	}
	dirs, files, err := RunDirs(root, run)
	if err != nil {
		return nil, fmt.Errorf("listing run %s: %v", run, err)
	}
	return &Plan{Result: Result{Run: run, DryRun: true, Removed: dirs, Files: files}, root: root}, nil
}

// ForHistory plans cleaning up the run of a history, as its profile's plan (Register) says.
func ForHistory(ctx context.Context, h *history.History, o Options) (*Plan, error) {
	if !profile.ValidRunID(h.Header.Run) {
		return nil, fmt.Errorf("the history's run id %q is not one osctl gives (8 hex digits): nothing is cleaned up on its word", h.Header.Run)
	}
	if plan := planOf(h.Header.Profile); plan != nil {
		return plan(ctx, h, o)
	}
	return nil, &UsageError{fmt.Sprintf("the history is of a %s run, which leaves nothing to clean up", h.Header.Profile)}
}

// PlanFunc plans cleaning up one run of a profile from its history: what it removes, and
// only what the run can be shown to have made.
type PlanFunc func(context.Context, *history.History, Options) (*Plan, error)

// plans are each profile's cleanup plan, by name, as Register was given them (stress.Register,
// for a profile that is a stress.Cleaner): a profile with none leaves nothing.
var (
	plansMu sync.RWMutex
	plans   = map[string]PlanFunc{}
)

// Register makes plan the cleanup of the runs of the profile of that name (stress.Register
// calls it for a profile that has one).
func Register(name string, plan PlanFunc) {
	plansMu.Lock()
	defer plansMu.Unlock()
	plans[name] = plan
}

func planOf(name string) PlanFunc {
	plansMu.RLock()
	defer plansMu.RUnlock()
	return plans[name]
}

// WouldDelete is a planned job's outcome in a dry run.
const WouldDelete = "would delete"

// UsageError says the cleanup asked for cannot be planned as given, and what to pass instead.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Empty reports whether the plan has nothing to do.
func (p *Plan) Empty() bool {
	return len(p.Removed) == 0 && (p.Deleter == nil || p.Deleter.Pending(&p.Result) == 0)
}

// Question is what to ask before applying the plan.
func (p *Plan) Question() string {
	if p.Deleter != nil {
		return p.Deleter.Question(p)
	}
	return fmt.Sprintf("Remove %d directories (%d files) of stress run %s under %s?", len(p.Removed), p.Files, p.Run, p.root)
}

// Apply does what the plan says: the Deleter's part first, then the directories. It returns what
// was done even when it stops at an error.
func (p *Plan) Apply(ctx context.Context) (*Result, error) {
	r := p.Result
	r.DryRun = false
	var derr error
	if p.Deleter != nil {
		derr = p.Deleter.Delete(ctx, &r)
	}
	for i, d := range p.Removed {
		if err := os.RemoveAll(d); err != nil {
			r.Removed = p.Removed[:i]
			return &r, fmt.Errorf("removing %s: %v (what is listed above was done)", d, err)
		}
	}
	return &r, derr
}
