package detect

import (
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// Rules are a profile's own part of a verdict: its findings, and what else a run of it needs
// before a verdict without findings is clean. Judge gives every run the shared part (the load
// counted by outcome, the acknowledged fraction, partial runs, lost load workers) and asks the
// run's Rules for the rest: a profile brings its rules as a value (Options.Rules) and Judge
// never names one.
type Rules interface {
	// Findings judges the history and the state (nil: not read). It may fill in the
	// judgement's measures of the profile (contention, extractions, the jobs' power).
	Findings(h *history.History, st *snapshot.State, o Options, j *Judgement) []Finding
	// Unearned says why a run without findings has not earned a clean verdict, beyond the
	// shared reasons (none: nothing more is needed).
	Unearned(h *history.History, st *snapshot.State, o Options, j *Judgement) []string
}

// An Excluder is Rules that leave some requests out of the verdict (a history or a server that
// names "../../x" as an id): each is a reason a verdict is not clean.
type Excluder interface {
	Excluded(h *history.History) []string
}

// A StateReader is Rules that judge a state read from the target (files on a volume): Dirs are
// the only part of it that is read and judged.
type StateReader interface {
	Dirs(h *history.History) []string
}
