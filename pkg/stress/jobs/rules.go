package jobs

import (
	"fmt"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// Rules judge a jobs run (detect.Rules): the ceiling, stranded, invisible and lost jobs, and
// whether the polls could have seen them (PowerOf).
type Rules struct{}

// Findings implements detect.Rules.
func (Rules) Findings(h *history.History, _ *snapshot.State, o detect.Options, j *detect.Judgement) []detect.Finding {
	p := PowerOf(h, o.MaxActive, o.StrandGrace())
	j.Part = &Part{Power: &p}
	j.Active = SurelyActive(h)
	return Findings(h, o.MaxActive, o.StrandGrace())
}

// Unearned implements detect.Rules: jobs not finished, no ceiling, too few jobs, or polls that
// could not have seen a breach (PowerOf).
func (Rules) Unearned(h *history.History, _ *snapshot.State, o detect.Options, j *detect.Judgement) []string {
	var out []string
	if n := NotFinished(h); n > 0 {
		out = append(out, fmt.Sprintf("%d of the jobs had not finished when following them stopped ({JobTimeout} %s): the run says nothing about them", n, h.Header.JobTimeout))
	}
	switch {
	case o.MaxActive <= 0:
		out = append(out, "no ceiling known: pass {MaxActive} (the sandbox reports it in GET /status)")
	case j.Acknowledged <= o.MaxActive:
		out = append(out, fmt.Sprintf("only %s acknowledged: more than the ceiling %d are needed to test it", plural(j.Acknowledged, "job"), o.MaxActive))
	case !o.IgnorePower:
		if p, ok := j.Part.(*Part); ok && p.Power != nil {
			out = append(out, p.Power.Reasons(o.MaxActive)...)
		}
	}
	return out
}

// plural is "1 job", "2 jobs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
