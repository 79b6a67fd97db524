package jobs

import (
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/report"
)

// Part is a jobs run's part of the report (report.Part) and of its verdict
// (detect.Judgement.Part): its field is the report's top-level "power".
type Part struct {
	// Power is what the run's polls could see.
	Power *Power `json:"power,omitempty"`
}

// NewPart implements stress.Reporter.
func (Profile) NewPart() report.Part { return &Part{} }

// PartOf is the jobs part of a report (an empty one when it has none).
func PartOf(r *report.Report) *Part {
	if p, ok := r.Part.(*Part); ok {
		return p
	}
	return &Part{}
}

// Rows implements report.Part: what the polls saw, against the ceiling.
func (p *Part) Rows(r *report.Report) []report.Row {
	if p.Power == nil || r.Thresholds == nil || r.Thresholds.MaxActive <= 0 {
		return nil
	}
	return []report.Row{{Measure: "seen", Value: p.Power.Line(r.Thresholds.MaxActive)}}
}

// Next implements report.Part: no ceiling known, or polls too slow to see a breach.
func (p *Part) Next(r *report.Report, th detect.Thresholds) string {
	switch {
	case th.MaxActive <= 0:
		return "no ceiling known: pass {MaxActive}"
	case p.Power != nil && !p.Power.Ceiling && r.Counts.Acknowledged > int64(th.MaxActive):
		return "the polls were too slow to see a breach of the ceiling in jobs this short: " + p.Power.CeilingRemedy()
	}
	return ""
}
