package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/osctl/osctl/pkg/stress/detect"
)

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

// KindsOf returns the finding kinds a profile can give.
func KindsOf(profile string) []string {
	switch profile {
	case "openstudio":
		return []string{detect.Lost, detect.Duplicate, detect.Torn, detect.Mixed, detect.Phantom}
	case "jobs":
		return []string{detect.Ceiling, detect.Stranded, detect.Invisible, detect.Lost}
	}
	return nil
}

// WriteJUnit writes the report as one test suite: one case per finding kind (failed with its
// findings) and one case for the verdict being earned (an error when inconclusive).
func WriteJUnit(w io.Writer, r *Report) error {
	s := junitSuite{Name: "osctl stress " + r.Profile + " " + r.Run, Time: fmt.Sprintf("%.3f", r.Elapsed)}
	class := "osctl.stress." + r.Profile
	for _, k := range KindsOf(r.Profile) {
		c := junitCase{Name: "no " + k, Classname: class}
		var lines []string
		for _, f := range r.Findings {
			if f.Kind == k {
				lines = append(lines, FindingLine(f))
			}
		}
		if len(lines) > 0 {
			c.Failure = &junitFailure{Message: fmt.Sprintf("%d %s findings", len(lines), k), Type: k, Body: strings.Join(lines, "\n")}
			s.Failures++
		}
		s.Cases = append(s.Cases, c)
	}
	c := junitCase{Name: "verdict earned", Classname: class}
	if !r.Conclusive {
		c.Error = &junitFailure{Message: "inconclusive", Type: "inconclusive", Body: strings.Join(r.Reasons, "\n")}
		s.Errors++
	}
	s.Cases = append(s.Cases, c)
	s.Tests = len(s.Cases)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(junitSuites{Suites: []junitSuite{s}}); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
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
