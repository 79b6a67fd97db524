package rollout

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/setting"

	"github.com/osctl/osctl/pkg/preflight"
)

// StressReport is the part of an `osctl stress --report` file the rollout relies on.
type StressReport struct {
	Verdict              string    `json:"verdict"` // clean | races | inconclusive
	Conclusive           bool      `json:"conclusive"`
	Partial              bool      `json:"partial"`
	FinishedAt           time.Time `json:"finished_at"`
	MaxReplicasValidated int32     `json:"max_replicas_validated"`
	Workload             struct {
		Namespace  string `json:"namespace"`
		Deployment string `json:"deployment"`
		Image      string `json:"image"`
		Replicas   int32  `json:"replicas"`
	} `json:"workload"`
}

// LoadStressReport reads a stress report file.
func LoadStressReport(path string) (*StressReport, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, setting.Errorf("StressReport", "%s: %v", path, err)
	}
	var r StressReport
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, setting.Errorf("StressReport", "%s is not the JSON report of a stress run (osctl stress): %v", path, err)
	}
	if r.Verdict == "" {
		return nil, setting.Errorf("StressReport", "%s has no verdict: is it the JSON report of a stress run (osctl stress)?", path)
	}
	return &r, nil
}

// ReportPolicy is what a stress report must satisfy for a rollout.
type ReportPolicy struct {
	Now       time.Time
	MaxAge    time.Duration
	Images    []string // the Deployment's images now
	Namespace string
	Workload  string
	Plan      Plan
	Strict    bool // a step above the validated replica count fails instead of warning
}

// Rule ids of the stress report check.
const (
	RuleReportVerdict  = "rollout.report.verdict"
	RuleReportAge      = "rollout.report.age"
	RuleReportImage    = "rollout.report.image"
	RuleReportWorkload = "rollout.report.workload"
	RuleReportReplicas = "rollout.report.replicas"
	RuleReportSkipped  = "rollout.report.skipped"
	RuleReportMissing  = "rollout.report.missing"
	RuleSingleOwner    = "rollout.single-owner"
)

// CheckStressReport judges a stress report against the policy. It does no I/O.
func CheckStressReport(r *StressReport, p ReportPolicy) []preflight.Result {
	subj := "stress report"
	var out []preflight.Result
	switch {
	case r.Verdict != "clean":
		out = append(out, preflight.Result{ID: RuleReportVerdict, Status: preflight.Fail, Subject: subj,
			Message: fmt.Sprintf("verdict is %q, not clean", r.Verdict), Fix: "fix the races the report lists, then run osctl stress again for a new JSON report"})
	case !r.Conclusive || r.Partial:
		out = append(out, preflight.Result{ID: RuleReportVerdict, Status: preflight.Fail, Subject: subj,
			Message: fmt.Sprintf("the run was not conclusive (conclusive=%v, partial=%v)", r.Conclusive, r.Partial), Fix: "run osctl stress to the end, with enough acknowledged requests, for a new JSON report"})
	default:
		out = append(out, preflight.Result{ID: RuleReportVerdict, Status: preflight.Pass, Subject: subj, Message: "verdict clean, conclusive, complete"})
	}
	age := p.Now.Sub(r.FinishedAt)
	switch {
	case r.FinishedAt.IsZero():
		out = append(out, preflight.Result{ID: RuleReportAge, Status: preflight.Fail, Subject: subj, Message: "the report has no finished_at time", Fix: "use the JSON report written by osctl stress"})
	case age > p.MaxAge:
		out = append(out, preflight.Result{ID: RuleReportAge, Status: preflight.Fail, Subject: subj,
			Message: fmt.Sprintf("finished %s ago, older than the oldest report accepted (%s)", age.Round(time.Minute), p.MaxAge), Fix: "run osctl stress again for a new JSON report, or accept older reports"})
	case age < -5*time.Minute:
		out = append(out, preflight.Result{ID: RuleReportAge, Status: preflight.Fail, Subject: subj,
			Message: fmt.Sprintf("finished_at %s is in the future", r.FinishedAt.Format(time.RFC3339)), Fix: "check the clocks of the machine that ran the stress test"})
	default:
		out = append(out, preflight.Result{ID: RuleReportAge, Status: preflight.Pass, Subject: subj, Message: fmt.Sprintf("finished %s ago", age.Round(time.Second))})
	}
	imgOK := false
	for _, im := range p.Images {
		if im == r.Workload.Image && im != "" {
			imgOK = true
		}
	}
	if imgOK {
		out = append(out, preflight.Result{ID: RuleReportImage, Status: preflight.Pass, Subject: subj, Message: "made against " + r.Workload.Image + ", the image the Deployment runs"})
	} else {
		out = append(out, preflight.Result{ID: RuleReportImage, Status: preflight.Fail, Subject: subj,
			Message: fmt.Sprintf("made against image %q; the Deployment runs %s", r.Workload.Image, strings.Join(p.Images, ", ")), Fix: "run osctl stress against the image deployed now for a new JSON report"})
	}
	if (r.Workload.Deployment != "" && r.Workload.Deployment != p.Workload) || (r.Workload.Namespace != "" && r.Workload.Namespace != p.Namespace) {
		out = append(out, preflight.Result{ID: RuleReportWorkload, Status: preflight.Warn, Subject: subj,
			Message: fmt.Sprintf("made against %s/%s, not %s/%s (same image)", r.Workload.Namespace, r.Workload.Deployment, p.Namespace, p.Workload)})
	}
	if max := p.Plan.MaxReplicas(); max > r.MaxReplicasValidated {
		st := preflight.Warn
		fix := "run osctl stress with more replicas, or make the rollout strict to refuse this"
		if p.Strict {
			st, fix = preflight.Fail, "run osctl stress with at least that many replicas, or lower the steps"
		}
		out = append(out, preflight.Result{ID: RuleReportReplicas, Status: st, Subject: subj,
			Message: fmt.Sprintf("the plan goes to %d replicas; the report validated %d", max, r.MaxReplicasValidated), Fix: fix})
	}
	return out
}

// SkippedReport is the loud result of a rollout told to skip the validation.
func SkippedReport() preflight.Result {
	return preflight.Result{ID: RuleReportSkipped, Status: preflight.Warn, Subject: "stress report",
		Message: "VALIDATION SKIPPED: nothing shows this workload is free of races at more than one replica"}
}

// MissingReport is the result when no stress report was given.
func MissingReport() preflight.Result {
	return preflight.Result{ID: RuleReportMissing, Status: preflight.Fail, Subject: "stress report",
		Message: "no stress report: going above one replica needs evidence that the workload has no races",
		Fix:     "give the JSON report of a passing osctl stress run (or skip the validation, at your own risk)"}
}

// CheckSingleOwner refuses plans that take a single-owner workload above one replica.
func CheckSingleOwner(t *Target, p Plan) preflight.Result {
	if ok, where := t.SingleOwner(); ok && p.MaxReplicas() > 1 {
		return preflight.Result{ID: RuleSingleOwner, Status: preflight.Fail, Subject: "Deployment " + t.Deployment.Name,
			Message: fmt.Sprintf("%s is annotated %s: \"true\"; it is never scaled above one replica", where, AnnotationSingleOwner),
			Fix:     "remove the annotation only once the workload coordinates across replicas"}
	}
	return preflight.Result{ID: RuleSingleOwner, Status: preflight.Pass, Subject: "Deployment " + t.Deployment.Name, Message: "not marked single-owner"}
}
