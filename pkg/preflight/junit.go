package preflight

import (
	"encoding/xml"
	"fmt"
	"io"

	"github.com/jstemmer/go-junit-report/v2/junit"
)

// Suite is a named group of results, one JUnit testsuite (for example "nfs" or "redis").
type Suite struct {
	Name    string   `json:"name"`
	Results []Result `json:"results"`
}

// WriteJUnit writes suites as JUnit XML: a FAIL is a <failure>, an UNKNOWN is <skipped> with its
// reason, and PASS, INFO and WARN pass (WARN and INFO keep their message in system-out, so CI
// shows them without failing the build).
func WriteJUnit(w io.Writer, name string, suites []Suite) error {
	out := junit.Testsuites{Name: name}
	for i, s := range suites {
		js := junit.Testsuite{Name: s.Name, ID: i, Time: "0"} // checks are not timed
		for _, r := range s.Results {
			c := junit.Testcase{Name: caseName(r), Classname: "osctl.preflight." + s.Name}
			text := r.Message
			if r.Fix != "" {
				text += "\nfix: " + r.Fix
			}
			switch r.Status {
			case Fail:
				c.Failure = &junit.Result{Message: r.Message, Type: "fail", Data: text}
			case Unknown:
				c.Skipped = &junit.Result{Message: r.Message}
			default:
				c.SystemOut = &junit.Output{Data: fmt.Sprintf("%s: %s", r.Status, text)}
			}
			js.AddTestcase(c)
		}
		out.AddSuite(js)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	return out.WriteXML(w)
}

func caseName(r Result) string {
	if r.Subject == "" {
		return r.ID
	}
	return r.ID + " " + r.Subject
}
