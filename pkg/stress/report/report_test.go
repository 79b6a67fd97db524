package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/detect"
)

func sample() *Report {
	h := hdrhistogram.New(1, 600e6, 3)
	for i := int64(1); i <= 5000; i++ {
		_ = h.RecordValue(i * 37)
	}
	t0 := time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)
	return &Report{Schema: Schema, SchemaVersion: SchemaVersion, Run: "0badc0de", Profile: "openstudio", Verdict: detect.Races, Conclusive: true,
		StartedAt: t0, FinishedAt: t0.Add(3 * time.Second), Histogram: Buckets(h, 5),
		Timeline: []attack.Sample{{At: t0, InFlight: 0}, {At: t0.Add(time.Second), InFlight: 900}, {At: t0.Add(2 * time.Second), InFlight: 10}},
		Findings: []detect.Finding{{Kind: detect.Torn, Object: "a1", Paths: []string{"server/x.zip"}, Expected: "one upload", Got: "no match <b>",
			Requests: []detect.RequestRef{{Seq: 3, Op: "upload", Nonce: "osctl-0badc0de-00000003"}}}}}
}

func TestBucketsKeepEveryCount(t *testing.T) {
	r := sample()
	var n int64
	for i, b := range r.Histogram {
		n += b.Count
		if b.ToMS <= b.FromMS || (i > 0 && b.FromMS < r.Histogram[i-1].ToMS*0.999) {
			t.Fatalf("bad bucket %d %+v", i, b)
		}
	}
	if n != 5000 {
		t.Fatalf("%d counted", n)
	}
}

func TestJUnit(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	var s junit.Testsuites
	if err := xml.Unmarshal(buf.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	if s.Suites[0].Failures != 1 || s.Suites[0].Tests != 7 || s.Suites[0].Errors != 0 {
		t.Fatalf("%+v", s.Suites[0])
	}
	if c := s.Suites[0].Testcases; len(c) != 7 || c[6].Name != "verdict earned" || c[6].Error != nil {
		t.Fatalf("cases %+v", c)
	}
	if !strings.Contains(buf.String(), "osctl-0badc0de-00000003") {
		t.Fatal("the finding's request is not named")
	}
}
