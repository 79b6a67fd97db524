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

// RulesOf are the rules Judge applies to a run whose Options give none: those of the built-in
// capability the history's profile has (files on the volume, followed jobs), else none.
func RulesOf(k history.Profile) Rules {
	switch {
	case k.Files:
		return FileRules{}
	case k.Jobs:
		return JobRules{}
	}
	return nil
}

// FileRules judge a run whose objects are files on the shared volume (openstudio): lost, torn,
// mixed and phantom files, failed extractions; contention, extractions and result files.
type FileRules struct{}

// Findings implements Rules.
func (FileRules) Findings(h *history.History, st *snapshot.State, o Options, j *Judgement) []Finding {
	out := append(OpenStudio(h, st, o.Ignore), failedExtractions(h, index(h))...)
	c := ContentionOf(h)
	j.Contention = &c
	x := ExtractionsOf(h)
	j.Extractions = &x
	rf := ResultFilesOf(h)
	j.ResultFiles = &rf
	return out
}

// Unearned implements Rules.
func (FileRules) Unearned(h *history.History, st *snapshot.State, _ Options, j *Judgement) []string {
	var out []string
	if !j.Settled {
		out = append(out, "the files were still changing when they were read: raise {SettleTimeout}")
	}
	out = append(out, earnedReasons(h, j.Operations, j.Extractions, j.ResultFiles)...)
	out = append(out, stuckReasons(h, index(h))...)
	if st == nil {
		out = append(out, "the files were not read: pass {StateDir} or {StatePod}")
	}
	return out
}

// JobRules judge a run whose jobs the target runs and the run follows (jobs): the ceiling,
// stranded, invisible and lost jobs, and whether the polls could have seen them (JobsPower).
type JobRules struct{}

// Findings implements Rules.
func (JobRules) Findings(h *history.History, _ *snapshot.State, o Options, j *Judgement) []Finding {
	j.Power = jobsPower(h, o)
	return Jobs(h, o.MaxActive, o.StrandGrace())
}

// Unearned implements Rules.
func (JobRules) Unearned(h *history.History, _ *snapshot.State, o Options, j *Judgement) []string {
	return jobsReasons(h, j, o)
}
