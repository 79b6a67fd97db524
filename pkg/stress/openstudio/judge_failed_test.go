package openstudio

import (
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// TestFailedExtractionIsAFinding: an extraction the target says raised (a torn zip) is a finding
// of its own kind naming the worker, the error and the uploads that overlapped the job, never a
// clean "not judged"; a job lost with a killed worker (Resque's dirty exit) is not one.
func TestFailedExtractionIsAFinding(t *testing.T) {
	s := buildScenario(t, 3, t.TempDir())
	a := failTornExtraction(t, s)
	st := s.reread(t)
	j := judgeFiles(s.h, st, detect.Options{})
	if j.Verdict != detect.Races || j.Counts[detect.FailedExtraction] != 1 {
		t.Fatalf("verdict %s, counts %v: want races with one %s", j.Verdict, j.Counts, detect.FailedExtraction)
	}
	f := j.Findings[0]
	if f.Object != a || !strings.Contains(f.Got, "not a valid zip file") || !strings.Contains(f.Got, "vm:42") || len(f.Requests) == 0 {
		t.Errorf("finding %+v", f)
	}
	s.h.Footer.FailedJobs[0].Exception = history.DirtyExit
	if j := judgeFiles(s.h, st, detect.Options{}); j.Verdict != detect.Clean {
		t.Errorf("a job lost with its worker: %s %v %v, want clean", j.Verdict, j.Counts, j.Reasons)
	}
	s.h.Footer.FailedJobs[0].Analysis = "someone-else"
	s.h.Footer.FailedJobs[0].Exception = "RuntimeError"
	if j := judgeFiles(s.h, st, detect.Options{}); j.Verdict != detect.Clean {
		t.Errorf("another run's failure: %s %v, want clean", j.Verdict, j.Counts)
	}
}

// failTornExtraction records in s's footer that the extraction of the analysis of its first
// upload failed on a torn zip, as the sandbox's Resque failure list says it, during that upload;
// it returns the analysis.
func failTornExtraction(t *testing.T, s *scenario) string {
	t.Helper()
	for i := range s.h.Records {
		if up := &s.h.Records[i]; up.Analysis != "" && up.Op == "upload" && !up.Start.IsZero() {
			s.h.Footer.FailedJobs = []history.FailedJob{{Class: "ResqueJobs::InitializeAnalysis", Analysis: up.Analysis, Worker: "vm:42:analysis_wrappers",
				Exception: "RuntimeError", Error: "Extraction of the seed.zip file failed 3 times with error opening osctl.zip: zip: not a valid zip file",
				RunAt: up.Start.Add(time.Millisecond), FailedAt: up.Start.UTC().Format("2006/01/02 15:04:05 UTC")}}
			return up.Analysis
		}
	}
	t.Fatal("the scenario has no upload")
	return ""
}

// TestStuckAnalysesWithoutACauseAreInconclusive: a settle wait that ended without progress with
// jobs still queued that no failure explains is inconclusive and names the analyses; a failure
// that explains them (here a dirty exit) keeps the run clean.
func TestStuckAnalysesWithoutACauseAreInconclusive(t *testing.T) {
	s := buildScenario(t, 3, t.TempDir())
	st := s.reread(t)
	var stuck string
	for i := range s.h.Records {
		r := &s.h.Records[i]
		if r.Op == history.ReadbackStatus && len(r.Jobs) > 0 {
			r.Jobs = append(r.Jobs, history.JobState{Index: len(r.Jobs), Status: history.JobQueued})
			stuck = r.ID
			break
		}
	}
	if stuck == "" {
		t.Fatal("the scenario reads back no job")
	}
	s.h.Footer.SettleStopped = settleStalled
	j := judgeFiles(s.h, st, detect.Options{})
	if j.Verdict != detect.Inconclusive || !strings.Contains(strings.Join(j.Reasons, "\n"), stuck) {
		t.Fatalf("verdict %s %v: want inconclusive naming %s", j.Verdict, j.Reasons, stuck)
	}
	// A Redis master restarted empty may have held its queued job, or its failure record.
	s.h.Footer.Faults = []nemesis.Fault{{Kind: nemesis.RestartRedis, Outcome: nemesis.Done, Injected: t0.Add(time.Second)}}
	if j := judgeFiles(s.h, st, detect.Options{}); j.Verdict != detect.Clean {
		t.Errorf("explained by a Redis restart: %s %v", j.Verdict, j.Reasons)
	}
	s.h.Footer.Faults = []nemesis.Fault{{Kind: nemesis.PauseRedis, Outcome: nemesis.Done, Injected: t0.Add(time.Second)}}
	if j := judgeFiles(s.h, st, detect.Options{}); j.Verdict != detect.Inconclusive {
		t.Errorf("a Redis pause loses no job: %s %v, want inconclusive", j.Verdict, j.Reasons)
	}
	// A pod let go (or killed) during the run explains only the jobs of starts sent to it.
	s.h.Footer.Faults = nil
	startTarget, starts := "http://web-0.invalid", 0
	for i := range s.h.Records {
		if rec := &s.h.Records[i]; rec.Op == history.OpStart && rec.Analysis == stuck {
			rec.Target = startTarget
			starts++
		}
	}
	if starts == 0 {
		t.Fatalf("the scenario sent no start of %s", stuck)
	}
	s.h.Footer.TargetsGone = []string{"http://another-pod.invalid"}
	if j := judgeFiles(s.h, st, detect.Options{}); j.Verdict != detect.Inconclusive {
		t.Errorf("a pod that took no start of %s went: %s %v, want inconclusive", stuck, j.Verdict, j.Reasons)
	}
	s.h.Footer.TargetsGone = []string{startTarget}
	if j := judgeFiles(s.h, st, detect.Options{}); j.Verdict != detect.Clean {
		t.Errorf("the pod that took a start of %s went: %s %v, want clean", stuck, j.Verdict, j.Reasons)
	}
	s.h.Footer.TargetsGone = nil
	s.h.Footer.FailedJobs = []history.FailedJob{{Class: "ResqueJobs::InitializeAnalysis", Analysis: stuck, Exception: history.DirtyExit}}
	if j := judgeFiles(s.h, st, detect.Options{}); j.Verdict != detect.Clean {
		t.Errorf("explained by a dirty exit: %s %v", j.Verdict, j.Reasons)
	}
}
