package ops

import (
	"context"
	"time"

	"github.com/osctl/osctl/pkg/redisconn"
)

// BreakRequest says what a break is asked to break. The reasons a plan gives name the request's
// settings as {Force} and {Stale} (pkg/setting), for the caller to render as it exposes them.
type BreakRequest struct {
	// Keys are the locks named; none means every stale lock the Options' patterns find.
	Keys []string
	// Stale breaks only stale locks: with Keys, only those of them that are stale.
	Stale bool
	// Force breaks named Keys that are not stale, never a key that is not a lock.
	Force bool
	// DryRun marks the refusals as a dry run's.
	DryRun bool
	// Who is recorded with every refusal, as with every break.
	Who string
}

// BreakPlan is what a break would do, decided from one read of every master.
type BreakPlan struct {
	// Break are the locks to break, as read.
	Break []View
	// Refused are the locks that will not be broken, each with the reason (OutcomeRefused).
	Refused []AuditRecord
	// Missing are named keys that are on no master.
	Missing []string
	// Summary is the read's (which masters did not answer, among others).
	Summary Summary
	// AskedStale is true when no key was named: every stale lock was asked for.
	AskedStale bool
}

// PlanBreak reads every master once (Inspect, with opts; the request's Keys replace opts.Keys,
// deduplicated) and decides, lock by lock, what a break of req does. Nothing is changed.
func PlanBreak(ctx context.Context, masters []redisconn.Master, opts Options, req BreakRequest, now time.Time) (*BreakPlan, error) {
	opts.Keys = dedupe(req.Keys)
	p := &BreakPlan{AskedStale: len(opts.Keys) == 0}
	found := map[string]bool{}
	sum, err := Inspect(ctx, masters, opts, func(v View) error {
		found[v.Key] = true
		switch {
		case v.Verdict.Status == StatusStale:
			p.Break = append(p.Break, v)
		case len(opts.Keys) == 0: // every stale lock over patterns: only stale ones are asked for
		case req.Force && Forceable(v.Verdict) && !req.Stale:
			p.Break = append(p.Break, v)
		default:
			p.Refused = append(p.Refused, AuditRecord{Who: req.Who, When: now.UTC(), Key: v.Key, Value: v.Value,
				Rule: v.Verdict.Rule, Reason: refusal(v, req), Outcome: OutcomeRefused, DryRun: req.DryRun})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.Summary = sum
	for _, k := range opts.Keys {
		if !found[k] {
			p.Missing = append(p.Missing, k)
		}
	}
	return p, nil
}

// refusal says why v is not broken under req.
func refusal(v View, req BreakRequest) string {
	switch {
	case v.Verdict.Status == StatusNotALock && Forceable(v.Verdict) && req.Stale:
		return "not a lock: " + v.Verdict.Reason + "; {Stale} never selects it: name it with {Force} if it is a lock"
	case v.Verdict.Status == StatusNotALock && Forceable(v.Verdict):
		return "not a lock: " + v.Verdict.Reason + "; name it with {Force} if it is a lock"
	case v.Verdict.Status == StatusNotALock:
		return "not a lock: " + v.Verdict.Reason
	case req.Stale:
		return "not stale (" + string(v.Verdict.Status) + "): " + v.Verdict.Reason + "; {Stale} breaks only stale locks"
	}
	return "not stale (" + string(v.Verdict.Status) + "): " + v.Verdict.Reason + "; use {Force} to break it anyway"
}

// Forceable reports whether a lock with verdict v may be broken with --force: every lock, and a
// string without a TTL whose value no lock library writes; never a hash, a list or an osctl key.
func Forceable(v Verdict) bool {
	return v.Status != StatusNotALock || v.Rule == RuleNoTTLUnknownValue
}

func dedupe(keys []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// BreakTally counts what a set of break records did.
type BreakTally struct {
	Broken   int // locks broken
	Deleted  int // keys deleted, over every master
	Problems int // locks refused or not fully broken
	Audited  int // audit records appended
}

// Tally counts records.
func Tally(records []AuditRecord) BreakTally {
	var t BreakTally
	for _, r := range records {
		t.Deleted += r.Deleted()
		switch r.Outcome {
		case OutcomeBroken:
			t.Broken++
		case OutcomeGone, OutcomeDryRun:
		default:
			t.Problems++
		}
		for _, a := range r.Audit {
			if a.Result == ResultAppended {
				t.Audited++
			}
		}
	}
	return t
}
