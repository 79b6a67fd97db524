package cleanup

import (
	"fmt"

	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// Lines says what the cleanup did (or would do), one line per object and a last line with the
// totals.
func (r *Result) Lines() []string {
	verb, del := "removed", "deleted"
	if r.DryRun {
		verb, del = "would remove", "would delete"
	}
	var out []string
	deleted := 0
	for _, d := range r.Analyses {
		switch d.Result {
		case profile.DeleteAlreadyGone:
			out = append(out, fmt.Sprintf("analysis %s is already gone (GET answered {\"analysis\":null})", d.ID))
		case profile.DeleteFailed:
			out = append(out, fmt.Sprintf("analysis %s not deleted: %s", d.ID, d.Error))
		case profile.DeleteNotTheRuns:
			out = append(out, fmt.Sprintf("analysis %s left alone: %s", d.ID, d.Error))
		default:
			deleted++
			out = append(out, fmt.Sprintf("%s analysis %s through %s", del, d.ID, r.Target))
		}
	}
	for _, d := range r.Jobs {
		out = append(out, jobLine(d))
	}
	for _, d := range r.Removed {
		out = append(out, verb+" "+d)
	}
	for _, sk := range r.Skipped {
		out = append(out, skippedLine(sk))
	}
	if r.Unknown > 0 {
		what := fmt.Sprintf("%d submits got no answer and carried no idempotency_key: any job they made has", r.Unknown)
		if r.Unknown == 1 {
			what = "1 submit got no answer and carried no idempotency_key: any job it made has"
		}
		out = append(out, what+" an id nobody knows (look for it in GET /v1/jobs on its replica)")
	}
	last := fmt.Sprintf("run %s: ", r.Run)
	if n := len(r.Skipped) + r.notTheRuns(); n > 0 {
		last += fmt.Sprintf("left alone %d object(s) the history names but the run cannot be shown to have made; ", n)
	}
	jobs := history.KindOf(r.Profile).Jobs
	switch {
	case jobs && r.DryRun:
		return append(out, last+fmt.Sprintf("would delete %d jobs", len(r.Jobs)))
	case jobs:
		return append(out, last+fmt.Sprintf("deleted %d jobs, %d already gone, %d not found, %d not deleted", r.Deleted, r.AlreadyGone, r.NotFound, r.NotDeleted))
	case r.Target != "":
		last += fmt.Sprintf("%s %d analyses through the API; ", del, deleted)
	}
	return append(out, last+fmt.Sprintf("%s %d directories (%d files)", verb, len(r.Removed), r.Files))
}

// jobLine is one job's line: what was (or would be) done to it, and how the run knows it when no
// answer named it.
func jobLine(d profile.JobDeletion) string {
	line := fmt.Sprintf("%s job %s on %s", d.Outcome, d.ID, d.Target)
	if d.Outcome != profile.JobDeleted && d.Outcome != WouldDelete {
		line = fmt.Sprintf("job %s on %s %s", d.ID, d.Target, d.Outcome)
	}
	if d.Seq > 0 {
		line += fmt.Sprintf(" (submit #%d", d.Seq)
		if d.How != "" {
			line += "; " + d.How
		}
		line += ")"
	}
	if d.Again {
		line += ": it came back after it was deleted (a submit still in flight made it again) and was deleted again"
	}
	if d.Error != "" {
		line += ": " + d.Error
	}
	return line
}

// skippedLine says what the history named that was left alone, and why.
func skippedLine(sk Skipped) string {
	line := "left alone " + sk.Kind + " " + sk.ID
	if sk.ID == "" {
		line = "left alone a " + sk.Kind + " with no id"
	}
	if sk.Target != "" {
		line += " on " + sk.Target
	}
	return line + ": " + sk.Reason
}

// notTheRuns counts the analyses the server names otherwise than the run did.
func (r *Result) notTheRuns() int {
	n := 0
	for _, d := range r.Analyses {
		if d.Result == profile.DeleteNotTheRuns {
			n++
		}
	}
	return n
}

// LeftAlone counts what the history names that cleanup left alone because the run cannot be
// shown to have made it (Skipped, and analyses the server names otherwise than the run did).
func (r *Result) LeftAlone() int { return len(r.Skipped) + r.notTheRuns() }
