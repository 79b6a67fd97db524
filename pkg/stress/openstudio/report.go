package openstudio

import (
	"fmt"
	"strings"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/report"
)

// Part is an openstudio run's part of the report (report.Part) and of its verdict
// (detect.Judgement.Part): its fields are the report's top-level "analyses", "project",
// "contention", "extractions", "result_files" and "background_waits".
type Part struct {
	Analyses int    `json:"analyses,omitempty"`
	Project  string `json:"project,omitempty"`
	// Contention is what the run achieved on the server.
	Contention *Contention `json:"contention,omitempty"`
	// Extractions says which extractions could be judged.
	Extractions *Extractions `json:"extractions,omitempty"`
	// ResultFiles says which result files were judged lost if missing.
	ResultFiles *ResultFiles `json:"result_files,omitempty"`
	// BackgroundWaits says how the held-back last part of the load waited for the target's
	// workers (so that uploads and extractions overlap), one entry per part.
	BackgroundWaits []history.BackgroundWait `json:"background_waits,omitempty"`
}

// partOf measures a run's part, from its history alone.
func partOf(h *history.History) *Part {
	c, x, rf := ContentionOf(h), ExtractionsOf(h), ResultFilesOf(h)
	p := &Part{Analyses: h.Header.Analyses, Project: project(h), Contention: &c, Extractions: &x, ResultFiles: &rf}
	if h.Footer != nil {
		p.BackgroundWaits = h.Footer.BackgroundWaits
	}
	return p
}

// NewPart implements stress.Reporter.
func (Profile) NewPart() report.Part { return &Part{} }

// PartOf is the openstudio part of a report (an empty one when it has none).
func PartOf(r *report.Report) *Part {
	if p, ok := r.Part.(*Part); ok {
		return p
	}
	return &Part{}
}

// Rows implements report.Part: extractions, result files, background waits, contention.
func (p *Part) Rows(*report.Report) []report.Row {
	var rows []report.Row
	row := func(k, format string, a ...any) {
		rows = append(rows, report.Row{Measure: k, Value: fmt.Sprintf(format, a...)})
	}
	if x := p.Extractions; x != nil && (x.Expected > 0 || x.Jobs > 0) {
		row("extractions", "%d judged, %d not judged (every job still queued); jobs %d: %d ran, %d still queued", x.Judged, x.NotJudged, x.Jobs, x.Ran, x.Queued)
	}
	if x := p.ResultFiles; x != nil && x.Judged+x.NotJudged > 0 {
		row("result files", "%d judged, %d not judged lost if missing (their analysis was started: the simulation worker deletes a data point's result files before it simulates)", x.Judged, x.NotJudged)
	}
	if len(p.BackgroundWaits) > 0 {
		var waits []string
		for _, w := range p.BackgroundWaits {
			s := fmt.Sprintf("%.1fs", w.WaitedS)
			if !w.Taken {
				s += " (no job taken)"
			}
			waits = append(waits, s)
		}
		row("background waits", "the last %d parts of the load waited %s for the target's background workers", len(waits), strings.Join(waits, ", "))
	}
	if ct := p.Contention; ct != nil {
		row("contention", "%d of %d analyses saw 2+ overlapping writes; max %d writes, %d requests in flight on one analysis", ct.Contended, ct.Analyses, ct.MaxOverlappingWrites, ct.MaxInFlightOneAnalysis)
	}
	return rows
}

// Next implements report.Part: too little contention, files still changing, no extraction
// judged.
func (p *Part) Next(r *report.Report, th detect.Thresholds) string {
	switch {
	case p.Contention != nil && th.MinContended > 0 && p.Contention.Fraction < th.MinContended:
		return fmt.Sprintf("only %s of analyses saw overlapping writes, {MinContended} needs %s: raise {Concurrency} or lower {Analyses}",
			detect.Pct(p.Contention.Fraction), detect.Pct(th.MinContended))
	case !r.Settled:
		return "the files were still changing when they were read: raise {SettleTimeout}"
	case p.Extractions != nil && p.Extractions.Expected > 0 && p.Extractions.Judged == 0:
		return "no extraction could be judged: check that the target's workers run, and raise {SettleTimeout}"
	}
	return ""
}

// project is the run's project: the one it was given, or the one its setup created.
func project(h *history.History) string {
	if h.Header.Project != "" {
		return h.Header.Project
	}
	for i := range h.Records {
		if r := &h.Records[i]; r.Kind == history.KindRequest && r.Op == history.OpCreateProject && r.Applied() {
			return r.Returned
		}
	}
	return ""
}
