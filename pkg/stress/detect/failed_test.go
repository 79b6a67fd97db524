package detect

import (
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/stress/history"
)

// TestFailedExtractionIsAFinding: an extraction the target says raised (a torn zip) is a finding
// of its own kind naming the worker, the error and the uploads that overlapped the job, never a
// clean "not judged"; a job lost with a killed worker (Resque's dirty exit) is not one.
func TestFailedExtractionIsAFinding(t *testing.T) {
	s := buildScenario(t, 3, t.TempDir())
	var a string
	var up *history.Record
	for i := range s.h.Records {
		if r := &s.h.Records[i]; r.Analysis != "" && r.Op == "upload" && !r.Start.IsZero() {
			a, up = r.Analysis, r
			break
		}
	}
	if a == "" || up == nil {
		t.Fatalf("the scenario has no upload of its first analysis %q", a)
	}
	st := s.reread(t)
	s.h.Footer.FailedJobs = []history.FailedJob{{Class: "ResqueJobs::InitializeAnalysis", Analysis: a, Worker: "vm:42:analysis_wrappers",
		Exception: "RuntimeError", Error: "Extraction of the seed.zip file failed 3 times with error opening osctl.zip: zip: not a valid zip file",
		RunAt: up.Start.Add(time.Millisecond), FailedAt: up.Start.UTC().Format("2006/01/02 15:04:05 UTC")}}
	j := Judge(s.h, st, Options{})
	if j.Verdict != Races || j.Counts[FailedExtraction] != 1 {
		t.Fatalf("verdict %s, counts %v: want races with one %s", j.Verdict, j.Counts, FailedExtraction)
	}
	f := j.Findings[0]
	if f.Object != a || !strings.Contains(f.Got, "not a valid zip file") || !strings.Contains(f.Got, "vm:42") || len(f.Requests) == 0 {
		t.Errorf("finding %+v", f)
	}
	s.h.Footer.FailedJobs[0].Exception = history.DirtyExit
	if j := Judge(s.h, st, Options{}); j.Verdict != Clean {
		t.Errorf("a job lost with its worker: %s %v %v, want clean", j.Verdict, j.Counts, j.Reasons)
	}
	s.h.Footer.FailedJobs[0].Analysis = "someone-else"
	s.h.Footer.FailedJobs[0].Exception = "RuntimeError"
	if j := Judge(s.h, st, Options{}); j.Verdict != Clean {
		t.Errorf("another run's failure: %s %v, want clean", j.Verdict, j.Counts)
	}
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
	j := Judge(s.h, st, Options{})
	if j.Verdict != Inconclusive || !strings.Contains(strings.Join(j.Reasons, "\n"), stuck) {
		t.Fatalf("verdict %s %v: want inconclusive naming %s", j.Verdict, j.Reasons, stuck)
	}
	// A Redis master restarted empty may have held its queued job, or its failure record.
	s.h.Footer.Faults = []nemesis.Fault{{Kind: nemesis.RestartRedis, Outcome: nemesis.Done, Injected: t0.Add(time.Second)}}
	if j := Judge(s.h, st, Options{}); j.Verdict != Clean {
		t.Errorf("explained by a Redis restart: %s %v", j.Verdict, j.Reasons)
	}
	s.h.Footer.Faults = []nemesis.Fault{{Kind: nemesis.PauseRedis, Outcome: nemesis.Done, Injected: t0.Add(time.Second)}}
	if j := Judge(s.h, st, Options{}); j.Verdict != Inconclusive {
		t.Errorf("a Redis pause loses no job: %s %v, want inconclusive", j.Verdict, j.Reasons)
	}
	s.h.Footer.Faults = nil
	s.h.Footer.FailedJobs = []history.FailedJob{{Class: "ResqueJobs::InitializeAnalysis", Analysis: stuck, Exception: history.DirtyExit}}
	if j := Judge(s.h, st, Options{}); j.Verdict != Clean {
		t.Errorf("explained by a dirty exit: %s %v", j.Verdict, j.Reasons)
	}
}
