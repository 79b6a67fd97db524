package preflight_test

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/preflight"
)

var sample = []preflight.Result{
	{ID: "a.one", Status: preflight.Pass, Subject: "x", Message: "ok"},
	{ID: "a.two", Status: preflight.Fail, Subject: "deployment/web", Message: "bad", Fix: "fix it"},
	{ID: "b.three", Status: preflight.Unknown, Subject: "redis", Message: "CONFIG blocked"},
	{ID: "b.four", Status: preflight.Warn, Subject: "redis", Message: "hmm"},
}

func TestWorstAndSummary(t *testing.T) {
	if w := preflight.Worst(sample); w != preflight.Fail {
		t.Fatal(w)
	}
	if w := preflight.Worst(sample[2:3]); w != preflight.Unknown {
		t.Fatal(w)
	}
	s := preflight.Summarize(sample)
	if !s.Failed || s.Pass != 1 || s.Fail != 1 || s.Unknown != 1 || s.Warn != 1 {
		t.Fatalf("%+v", s)
	}
	rs := append([]preflight.Result(nil), sample...)
	preflight.SortStable(rs)
	if rs[0].Status != preflight.Fail || rs[len(rs)-1].Status != preflight.Pass {
		t.Fatalf("%v", rs)
	}
}

func TestJUnit(t *testing.T) {
	var b bytes.Buffer
	if err := preflight.WriteJUnit(&b, "osctl preflight", []preflight.Suite{{Name: "a", Results: sample[:2]}, {Name: "b", Results: sample[2:]}}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if doc.Tests != 4 || doc.Failures != 1 || doc.Skipped != 1 || len(doc.Suites) != 2 {
		t.Fatalf("%+v", doc)
	}
	f := doc.Suites[0].Cases[1]
	if f.Name != "a.two deployment/web" || f.Failure == nil || !strings.Contains(f.Failure.Body, "fix: fix it") {
		t.Fatalf("%+v", f)
	}
}

func TestConfigAndIgnores(t *testing.T) {
	p := filepath.Join(t.TempDir(), "preflight.yaml")
	os.WriteFile(p, []byte("ignore:\n- b.*\n- id: a.two\n  subject: deployment/other\n  reason: not ours\npassengerMaxRatio: 30\n"), 0o644)
	c, err := preflight.LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Ignore) != 2 || c.Ignore[0].ID != "b.*" || c.Ignore[1].Subject != "deployment/other" || c.PassengerMaxRatio != 30 {
		t.Fatalf("%+v", c)
	}
	rs := preflight.ApplyIgnores(sample, c, map[string]string{"x": "a.one"})
	if rs[1].Status != preflight.Fail {
		t.Error("a subject-scoped ignore must not match another subject")
	}
	if rs[2].Status != preflight.Info || rs[3].Status != preflight.Info || !strings.Contains(rs[3].Message, "was WARN") {
		t.Errorf("prefix ignore: %+v", rs[2:])
	}
	rs = preflight.ApplyIgnores(sample, nil, map[string]string{"deployment/web": "other, a.two"})
	if rs[1].Status != preflight.Info || !strings.Contains(rs[1].Message, "annotation osctl.io/ignore on deployment/web") {
		t.Errorf("annotation ignore: %+v", rs[1])
	}
	if sample[1].Status != preflight.Fail {
		t.Error("ApplyIgnores must not change its input")
	}

	os.WriteFile(p, []byte("ignores: [a.one]\n"), 0o644)
	if _, err := preflight.LoadConfig(p); err == nil || !strings.Contains(err.Error(), "ignores") {
		t.Errorf("a misspelt key must be an error: %v", err)
	}
}
