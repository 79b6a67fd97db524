package openstudio

import (
	"context"
	"fmt"
	"net/url"

	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/cleanup"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// Plan plans an openstudio run's cleanup (a cleanup.PlanFunc): its analyses through the server's API (DELETE
// /analyses/:id.json, which answers 500 for a missing one: an analysis that reads back as
// {"analysis":null} is already gone), unless the target is the sandbox, and its files on the
// volume, which DELETE leaves (result files are embedded and their attachments not destroyed; the
// extraction goes only later, in a background job).
func Plan(ctx context.Context, h *history.History, o cleanup.Options) (*cleanup.Plan, error) {
	if o.StateDir == "" {
		return nil, &cleanup.UsageError{Msg: "an openstudio run's files are on the volume: pass {StateDir} DIR, its root on this machine"}
	}
	p, err := cleanup.Files(o.StateDir, h.Header.Run)
	if err != nil {
		return nil, &cleanup.UsageError{Msg: err.Error()}
	}
	p.Profile = h.Header.Profile
	base := o.Target
	if base == nil {
		if len(h.Header.Targets) == 0 {
			return nil, &cleanup.UsageError{Msg: "the history names no target: pass {Target} URL"}
		}
		raw := h.Header.Targets[0]
		u, err := url.Parse(raw)
		if err != nil || u.User != nil {
			return nil, &cleanup.UsageError{Msg: fmt.Sprintf("the history keeps target %s without its password: pass {Target} URL", raw)}
		}
		base = u
	}
	t := profile.Probe(ctx, o.Client, base)
	if !t.Reachable {
		return nil, fmt.Errorf("target %s is not reachable: %s (pass {Target} URL of the server the run used)", base.Redacted(), redact.Text(t.ProbeErr))
	}
	if !t.Status.Sandbox {
		d := &analysisDeleter{client: o.Client, base: base}
		p.Target = base.Redacted()
		d.refs, p.Skipped = analyses(h)
		p.Analyses = profile.DeleteAnalyses(ctx, o.Client, base, d.refs, true) // look first: what exists, what is gone, what is not the run's
		p.Deleter = d
	}
	return p, nil
}

// analysisDeleter deletes a run's analyses through the server's API (cleanup.Deleter).
type analysisDeleter struct {
	client profile.Doer
	base   *url.URL
	refs   []profile.AnalysisRef
}

// Pending implements cleanup.Deleter: the analyses the look before found.
func (*analysisDeleter) Pending(r *cleanup.Result) int {
	n := 0
	for _, d := range r.Analyses {
		if d.Result == profile.DeleteDeleted {
			n++
		}
	}
	return n
}

// Question implements cleanup.Deleter.
func (d *analysisDeleter) Question(p *cleanup.Plan) string {
	return fmt.Sprintf("Delete %d analyses of stress run %s through %s, and remove %d directories (%d files) under %s?", d.Pending(&p.Result), p.Run, p.Target, len(p.Removed), p.Files, p.Root())
}

// Delete implements cleanup.Deleter.
func (d *analysisDeleter) Delete(ctx context.Context, r *cleanup.Result) error {
	r.Analyses = profile.DeleteAnalyses(ctx, d.client, d.base, d.refs, false)
	failed := 0
	for _, a := range r.Analyses {
		if a.Result == profile.DeleteFailed {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d analyses were not deleted (listed above); run cleanup again to retry", failed, len(d.refs))
	}
	return nil
}

// analyses are the run's analyses whose create was acknowledged or ambiguous (those that may
// exist), as the run named them, and the creates that are not the run's as it writes them: a
// record without the run's nonce, or whose id is not one of the run's analysis ids (the server
// may choose its own id, but then the name the run gave it, checked before any DELETE, is what
// tells it is the run's).
func analyses(h *history.History) ([]profile.AnalysisRef, []cleanup.Skipped) {
	var refs []profile.AnalysisRef
	var skipped []cleanup.Skipped
	seen := map[string]bool{}
	run := h.Header.Run
	for _, r := range h.Records {
		if r.Kind != history.KindRequest || r.Op != history.OpCreateAnalysis || !r.Maybe() {
			continue
		}
		id := r.CreatedID()
		reason := ""
		switch {
		case r.Nonce != profile.Nonce(run, r.Seq):
			reason = fmt.Sprintf("its create #%d does not carry the run's nonce %s", r.Seq, profile.Nonce(run, r.Seq))
		case r.ID != "" && !profile.IsAnalysisOf(r.ID, run):
			reason = fmt.Sprintf("its create #%d asked for id %s, which is not one of the run's analysis ids (%s-000a-4000-8000-...)", r.Seq, r.ID, run)
		case id == "":
			reason = fmt.Sprintf("its create #%d names no analysis", r.Seq)
		}
		if reason != "" {
			skipped = append(skipped, cleanup.Skipped{Kind: "analysis", ID: id, Seq: r.Seq, Reason: reason})
			continue
		}
		if !seen[id] {
			seen[id] = true
			refs = append(refs, profile.AnalysisRef{ID: id, Name: r.Nonce, Project: r.Project})
		}
	}
	return refs, skipped
}
