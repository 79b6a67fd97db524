package openstudio

import (
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

// TestVerdictEarnedPerOperation: a run without findings is inconclusive when an operation of the
// mix proved nothing, and the reason names the operation and what its first failure got.
func TestVerdictEarnedPerOperation(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(s *scenario)
		want   []string
	}{
		{"no result file sent", func(s *scenario) {
			keep := s.h.Records[:0]
			for _, r := range s.h.Records {
				if r.Op != history.OpUploadFile {
					keep = append(keep, r)
				}
			}
			s.h.Records = keep
		}, []string{"no upload_file request was sent", "acknowledged data point"}},
		{"every data point create rejected", func(s *scenario) {
			for i := range s.h.Records {
				if r := &s.h.Records[i]; r.Op == history.OpCreateDataPoint {
					r.Outcome, r.Status, r.Body = history.Ambiguous, 500, `{"status":500,"error":"Internal Server Error"}`
				}
			}
		}, []string{"no data_point was acknowledged (3 sent)", `HTTP 500: {"status":500,"error":"Internal Server Error"}`}},
		{"no job left queued", func(s *scenario) {
			for i := range s.h.Records {
				if r := &s.h.Records[i]; r.Op == history.ReadbackStatus && len(r.Jobs) > 0 {
					r.Jobs[0].Status = history.JobQueued
				}
			}
		}, []string{"2 starts were acknowledged, but no extraction could be judged"}},
		{"every result file on a started analysis", func(s *scenario) {
			// One analysis: the profile starts it, so its result files may all be deleted by
			// design and none is judged lost if missing.
			keep := s.h.Records[:0]
			for _, r := range s.h.Records {
				if r.Op != history.OpUploadFile || r.Analysis == profile.AnalysisID(testRun, 0) {
					keep = append(keep, r)
				}
			}
			s.h.Records = keep
		}, []string{"1 result files were acknowledged, but none could be judged lost if missing"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := buildScenario(t, 3, t.TempDir())
			c.mutate(s)
			j := judgeFiles(s.h, s.reread(t), detect.Options{Thresholds: verdict.Thresholds{MinAcknowledged: 0.1}})
			if j.Verdict != detect.Inconclusive || j.Conclusive {
				t.Fatalf("verdict %s, reasons %v, findings %+v", j.Verdict, j.Reasons, j.Findings)
			}
			all := strings.Join(j.Reasons, "\n")
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("reasons lack %q:\n%s", w, all)
				}
			}
		})
	}
	// The untouched scenario earns its verdict, and counts every operation.
	s := buildScenario(t, 3, t.TempDir())
	j := judgeFiles(s.h, s.reread(t), detect.Options{})
	if j.Verdict != detect.Clean {
		t.Fatalf("clean scenario: %s %v", j.Verdict, j.Reasons)
	}
	got := map[string]detect.OpStats{}
	for _, o := range j.Operations {
		got[o.Op] = o
	}
	if u := got["upload"]; u.Sent != 12 || u.Acknowledged != 6 || u.Ambiguous != 3 || u.Rejected != 3 || u.FirstFailure == "" {
		t.Errorf("upload counts %+v", u)
	}
	if got["start"].Acknowledged != 2 || got["data_point"].Acknowledged != 3 || got["upload_file"].Acknowledged != 3 {
		t.Errorf("operations %+v", j.Operations)
	}
	if x := partOfJ(j).Extractions; x == nil || x.Expected != 2 || x.Judged != 2 || x.NotJudged != 0 || x.Ran != 2 {
		t.Errorf("extractions %+v", partOfJ(j).Extractions)
	}
	if x := partOfJ(j).ResultFiles; x == nil || x.Judged != 1 || x.NotJudged != 2 {
		t.Errorf("result files %+v", partOfJ(j).ResultFiles)
	}
}

// TestFilesNotRead: without the state (no --state-dir or --state-pod) the files are not judged,
// so no file is "lost"; records still are, and a run without findings is inconclusive.
func TestFilesNotRead(t *testing.T) {
	s := buildScenario(t, 3, t.TempDir())
	j := judgeFiles(s.h, nil, detect.Options{})
	if len(j.Findings) != 0 || j.Verdict != detect.Inconclusive || !strings.Contains(strings.Join(j.Reasons, ";"), "the files were not read") {
		t.Fatalf("verdict %s reasons %v findings %+v", j.Verdict, j.Reasons, j.Findings)
	}
	for i := range s.h.Records {
		if r := &s.h.Records[i]; r.Kind == history.KindReadback && r.Op == "analysis" {
			r.Found, r.Body = false, `{"analysis":null}`
		}
	}
	if j := judgeFiles(s.h, nil, detect.Options{}); j.Verdict != detect.Races || j.Counts[detect.Lost] != 3 {
		t.Fatalf("lost records are found without the files: %s %v", j.Verdict, j.Counts)
	}
}

// TestZeroThresholdIsNoRequirement: a run that set --min-contended 0 (a serial run) is not held
// to the default.
func TestZeroThresholdIsNoRequirement(t *testing.T) {
	s := buildScenario(t, 3, t.TempDir())
	for i := range s.h.Records {
		if r := &s.h.Records[i]; r.Kind == history.KindRequest && !r.Setup {
			r.Start, r.End = t0.Add(time.Duration(i)*time.Second), t0.Add(time.Duration(i)*time.Second+time.Millisecond) // one at a time
		}
	}
	if j := judgeFiles(s.h, s.reread(t), detect.Options{Thresholds: verdict.Thresholds{MinContended: 0.5}}); j.Verdict != detect.Inconclusive {
		t.Fatalf("serial run with min-contended 0.5: %s %v", j.Verdict, j.Reasons)
	}
	if j := judgeFiles(s.h, s.reread(t), detect.Options{Thresholds: verdict.Thresholds{MinContended: 0}}); j.Verdict != detect.Clean {
		t.Fatalf("serial run with min-contended 0: %s %v", j.Verdict, j.Reasons)
	}
}
