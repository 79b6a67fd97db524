package cleanup

import (
	"fmt"

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
		default:
			deleted++
			out = append(out, fmt.Sprintf("%s analysis %s through %s", del, d.ID, r.Target))
		}
	}
	for _, d := range r.Jobs {
		line := fmt.Sprintf("%s job %s on %s", d.Outcome, d.ID, d.Target)
		if d.Error != "" {
			line += ": " + d.Error
		}
		out = append(out, line)
	}
	for _, d := range r.Removed {
		out = append(out, verb+" "+d)
	}
	if r.Unknown > 0 {
		out = append(out, fmt.Sprintf("%d submits got no answer and no replay: any job they made is unknown (look for it in GET /v1/jobs)", r.Unknown))
	}
	last := fmt.Sprintf("run %s: ", r.Run)
	switch {
	case r.Profile == "jobs" && r.DryRun:
		return append(out, last+fmt.Sprintf("would delete %d jobs", len(r.Jobs)))
	case r.Profile == "jobs":
		return append(out, last+fmt.Sprintf("deleted %d jobs, %d already gone, %d not deleted", r.Deleted, r.AlreadyGone, r.NotDeleted))
	case r.Target != "":
		last += fmt.Sprintf("%s %d analyses through the API; ", del, deleted)
	}
	return append(out, last+fmt.Sprintf("%s %d directories (%d files)", verb, len(r.Removed), r.Files))
}
