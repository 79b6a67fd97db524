package preflight

import (
	"encoding/xml"
	"fmt"
	"io"
)

// Suite is a named group of results, one JUnit testsuite (for example "nfs" or "redis").
type Suite struct {
	Name    string   `json:"name"`
	Results []Result `json:"results"`
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// WriteJUnit writes suites as JUnit XML: a FAIL is a <failure>, an UNKNOWN is <skipped> with its
// reason, and PASS, INFO and WARN pass (WARN and INFO keep their message in system-out, so CI
// shows them without failing the build).
func WriteJUnit(w io.Writer, name string, suites []Suite) error {
	out := junitSuites{Name: name}
	for _, s := range suites {
		js := junitSuite{Name: s.Name}
		for _, r := range s.Results {
			c := junitCase{Name: caseName(r), Classname: "osctl.preflight." + s.Name}
			text := r.Message
			if r.Fix != "" {
				text += "\nfix: " + r.Fix
			}
			switch r.Status {
			case Fail:
				c.Failure = &junitMessage{Message: r.Message, Type: "fail", Body: text}
				js.Failures++
			case Unknown:
				c.Skipped = &junitMessage{Message: r.Message}
				js.Skipped++
			default:
				c.SystemOut = fmt.Sprintf("%s: %s", r.Status, text)
			}
			js.Tests++
			js.Cases = append(js.Cases, c)
		}
		out.Tests += js.Tests
		out.Failures += js.Failures
		out.Skipped += js.Skipped
		out.Suites = append(out.Suites, js)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func caseName(r Result) string {
	if r.Subject == "" {
		return r.ID
	}
	return r.ID + " " + r.Subject
}
