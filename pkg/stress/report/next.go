package report

import (
	"fmt"

	"github.com/osctl/osctl/pkg/stress/detect"
)

// LockContract is the document a team reads to fix a race: the lock contract of the Rails app.
const LockContract = "docs/migration/rails-lock-contract.md"

// Next is one line saying what to do after this run: on races, the lock contract and a re-run;
// when inconclusive, the first threshold or condition that was missed and how to change the run;
// when clean, how many replicas it validated and how the rollout uses it.
func (r *Report) Next() string { return r.named(r.next()) }

func (r *Report) next() string {
	switch r.Verdict {
	case detect.Races:
		if r.Kind().Jobs && r.replayRaceOnly() {
			return "next: this breach is elb-openapi's replay race on one replica (a replay of a submit still in flight re-creates its job and frees a slot still in use), which one shared queue does not fix: raise {Timeout} above the service's submit time so that no submit is replayed while in flight, and see docs/migration/jobs.md"
		}
		if r.Kind().Jobs {
			return "next: make one dispatcher own the ceiling across replicas (docs/migration/jobs.md), then run this again: a fixed service gives no finding"
		}
		return "next: put each upload and extraction under one lock as " + LockContract + " says, then run this again: a fixed app gives no finding"
	case detect.Clean:
		n, why := r.MaxReplicasValidated, ""
		if m, w := replicasValidated(r); m == n {
			why = " (" + w + ")"
		}
		return fmt.Sprintf("next: this run validated %d replica%s%s; give its {Report} to 'osctl rollout run {Rollout.StressReport}' to step the HPA up to them", n, plural(n), why)
	}
	return "next: " + r.remedy()
}

// remedy says how to change an inconclusive run, for the first thing it missed.
func (r *Report) remedy() string {
	th := detect.Thresholds{}
	if r.Thresholds != nil {
		th = *r.Thresholds
	}
	c := r.Counts
	switch {
	case r.Partial && r.StopReason == "interrupted":
		return "the run was interrupted: run it again to the end"
	case r.Partial:
		return fmt.Sprintf("the run stopped early (%s): lower {Concurrency} or {Rate} so that the target keeps up, or raise {MaxErrorRate}", r.StopReason)
	case c.Total == 0 && len(r.Operations) == 0:
		return "no load request was sent: check {Requests} and {Duration}"
	case th.MinAcknowledged > 0 && r.AckFraction < th.MinAcknowledged:
		return fmt.Sprintf("only %s of requests were acknowledged, {MinAcknowledged} needs %s: lower {Concurrency} (or {Rate}) until the target keeps up, or lower {MinAcknowledged}",
			detect.Pct(r.AckFraction), detect.Pct(th.MinAcknowledged))
	}
	if r.Part != nil {
		if n := r.Part.Next(r, th); n != "" {
			return n
		}
	}
	if len(r.Reasons) > 0 {
		return "fix what the first reason above says, then run this again: " + r.Reasons[0]
	}
	return "run this again"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// replayRaceOnly reports whether every finding is the replay race.
func (r *Report) replayRaceOnly() bool {
	for _, f := range r.Findings {
		if f.Cause != detect.CauseReplayRace {
			return false
		}
	}
	return len(r.Findings) > 0
}
