package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// KindsOf returns the finding kinds a profile can give.
func KindsOf(profile string) []string {
	return history.KindOf(profile).Findings
}

// WriteJUnit writes the report as one test suite: one case per finding kind (failed with its
// findings) and one case for the verdict being earned (an error when inconclusive).
func WriteJUnit(w io.Writer, r *Report) error {
	s := junit.Testsuite{Name: "osctl stress " + r.Profile + " " + r.Run, Time: fmt.Sprintf("%.3f", r.Elapsed)}
	class := "osctl.stress." + r.Profile
	for _, k := range KindsOf(r.Profile) {
		c := junit.Testcase{Name: "no " + k, Classname: class}
		var lines []string
		for _, f := range r.Findings {
			if f.Kind == k {
				lines = append(lines, FindingLine(f))
			}
		}
		if len(lines) > 0 {
			c.Failure = &junit.Result{Message: fmt.Sprintf("%d %s findings", len(lines), k), Type: k, Data: strings.Join(lines, "\n")}
		}
		s.AddTestcase(c)
	}
	c := junit.Testcase{Name: "verdict earned", Classname: class}
	if !r.Conclusive {
		c.Error = &junit.Result{Message: "inconclusive", Type: "inconclusive", Data: strings.Join(r.Reasons, "\n")}
	}
	s.AddTestcase(c)
	var out junit.Testsuites
	out.AddSuite(s)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	return out.WriteXML(w)
}

// FindingLine is one line describing a finding.
func FindingLine(f detect.Finding) string {
	var reqs []string
	for _, q := range f.Requests {
		reqs = append(reqs, fmt.Sprintf("#%d %s %s %s..%s %d %s", q.Seq, q.Op, q.Nonce, q.Start.Format("15:04:05.000"), q.End.Format("15:04:05.000"), q.Status, q.Outcome))
	}
	s := fmt.Sprintf("%s %s: expected %s; got %s", f.Kind, f.Object, f.Expected, f.Got)
	if len(f.Paths) > 0 {
		s += "; paths " + strings.Join(f.Paths[:min(len(f.Paths), 4)], ", ")
		if len(f.Paths) > 4 {
			s += fmt.Sprintf(" (+%d)", len(f.Paths)-4)
		}
	}
	if len(reqs) > 0 {
		s += "; requests " + strings.Join(reqs, "; ")
	}
	return s
}
