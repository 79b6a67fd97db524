package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/jobs"
	"github.com/osctl/osctl/pkg/stress/openstudio"
	"github.com/osctl/osctl/pkg/stress/report"
)

// TestNextAsksThePart: after the shared reasons, the next step is what the profile's part says
// (TestNext's cases that read a profile's measures, moved here with them).
func TestNextAsksThePart(t *testing.T) {
	th := &detect.Thresholds{MinAcknowledged: 0.5, MinContended: 0.5}
	for _, c := range []struct {
		r    report.Report
		want string
	}{
		{report.Report{Verdict: detect.Inconclusive, Thresholds: th, AckFraction: 0.9, Counts: attack.Counts{Total: 10}, Settled: true,
			Part: &openstudio.Part{Contention: &openstudio.Contention{Fraction: 0.1}}}, "raise --concurrency or lower --analyses"},
		{report.Report{Verdict: detect.Inconclusive, Thresholds: th, AckFraction: 0.9, Counts: attack.Counts{Total: 10}, Profile: "openstudio",
			Part: &openstudio.Part{}}, "raise --settle-timeout"},
		{report.Report{Verdict: detect.Inconclusive, Profile: "jobs", Thresholds: &detect.Thresholds{MaxActive: 2}, Counts: attack.Counts{Total: 12, Acknowledged: 12},
			Part: &jobs.Part{Power: &jobs.Power{CycleS: 17}}}, "too slow to see a breach of the ceiling in jobs this short: make each job run longer than two poll cycles (34s here)"},
		{report.Report{Verdict: detect.Inconclusive, Profile: "jobs", Counts: attack.Counts{Total: 12, Acknowledged: 12}, Part: &jobs.Part{}}, "no ceiling known: pass --max-active"},
	} {
		c.r.NameSettings(report.KebabFlag)
		if got := c.r.Next(); !strings.HasPrefix(got, "next: ") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q lacks %q", c.r.Verdict, got, c.want)
		}
	}
}

// TestPartInTheJSON: a part's fields are the report's own at the top level, and a report read
// back gets its profile's part again (the profile registered: stress.Register); a part with
// nothing set adds nothing.
func TestPartInTheJSON(t *testing.T) {
	report.RegisterPart("openstudio", func() report.Part { return &openstudio.Part{} })
	r := &report.Report{Profile: "openstudio", Verdict: detect.Clean, Part: &openstudio.Part{Analyses: 3, Project: "p-1",
		Contention: &openstudio.Contention{Contended: 2, Analyses: 3}}}
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &top); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	for _, k := range []string{"analyses", "project", "contention", "verdict", "findings"} {
		if _, ok := top[k]; !ok {
			t.Errorf("no top-level %q in %s", k, buf.String())
		}
	}
	if _, ok := top["extractions"]; ok {
		t.Error("an unset field of the part is in the JSON")
	}
	var back report.Report
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if p := openstudio.PartOf(&back); p.Analyses != 3 || p.Project != "p-1" || p.Contention == nil || p.Contention.Contended != 2 || back.Verdict != detect.Clean {
		t.Fatalf("read back: %+v, part %+v", back, p)
	}
	empty, err := json.Marshal(report.Report{Profile: "jobs", Part: &jobs.Part{}})
	if err != nil || bytes.Contains(empty, []byte(`"power"`)) || !json.Valid(empty) {
		t.Fatalf("an empty part: %s, %v", empty, err)
	}
}
