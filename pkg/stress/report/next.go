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
func (r *Report) Next() string {
	switch r.Verdict {
	case detect.Races:
		if r.Profile == "jobs" {
			return "next: make one dispatcher own the ceiling across replicas (docs/migration/jobs.md), then run this again: a fixed service gives no finding"
		}
		return "next: put each upload and extraction under one lock as " + LockContract + " says, then run this again: a fixed app gives no finding"
	case detect.Clean:
		return fmt.Sprintf("next: this run validated %d replica(s); give its --report to 'osctl rollout run --stress-report' to step the HPA up to them", r.MaxReplicasValidated)
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
		return fmt.Sprintf("the run stopped early (%s): lower --concurrency or --rate so that the target keeps up, or raise --max-error-rate", r.StopReason)
	case c.Total == 0 && len(r.Operations) == 0:
		return "no load request was sent: check --requests and --duration"
	case th.MinAcknowledged > 0 && r.AckFraction < th.MinAcknowledged:
		return fmt.Sprintf("only %s of requests were acknowledged, --min-acknowledged needs %s: lower --concurrency (or --rate) until the target keeps up, or lower --min-acknowledged",
			detect.Pct(r.AckFraction), detect.Pct(th.MinAcknowledged))
	case r.Contention != nil && th.MinContended > 0 && r.Contention.Fraction < th.MinContended:
		return fmt.Sprintf("only %s of analyses saw overlapping writes, --min-contended needs %s: raise --concurrency or lower --analyses",
			detect.Pct(r.Contention.Fraction), detect.Pct(th.MinContended))
	case r.Profile == "openstudio" && !r.Settled:
		return "the files were still changing when they were read: raise --settle-timeout"
	case r.Extractions != nil && r.Extractions.Expected > 0 && r.Extractions.Judged == 0:
		return "no extraction could be judged: check that the target's workers run, and raise --settle-timeout"
	case r.Profile == "jobs" && th.MaxActive <= 0:
		return "no ceiling known: pass --max-active"
	}
	if len(r.Reasons) > 0 {
		return "fix what the first reason above says, then run this again: " + r.Reasons[0]
	}
	return "run this again"
}
