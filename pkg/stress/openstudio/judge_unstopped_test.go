package openstudio

import (
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// TestUnstoppedWorkerMakesFindingsInconclusive: a finding of a run whose load worker was lost with
// no exit status (its process may have sent requests no history holds) is not proof of a race:
// the verdict is inconclusive and names the worker; a worker lost with its exit status (killed,
// its in-flight requests recorded as ambiguous) leaves the finding a race.
func TestUnstoppedWorkerMakesFindingsInconclusive(t *testing.T) {
	s := buildScenario(t, 3, t.TempDir())
	failTornExtraction(t, s)
	st := s.reread(t)
	s.h.Footer.LoadWorkers = []history.LoadWorker{{Index: 0, Pod: "osctl-stress-w-0"}, {Index: 1, Pod: "osctl-stress-w-1", Lost: true, Reason: "exit code 137"}}
	if j := judgeFiles(s.h, st, detect.Options{}); j.Verdict != detect.Races {
		t.Fatalf("a worker lost with its exit status: %s %v, want races", j.Verdict, j.Reasons)
	}
	s.h.Footer.LoadWorkers[1].Unstopped = true
	j := judgeFiles(s.h, st, detect.Options{})
	if j.Verdict != detect.Inconclusive || j.Conclusive || len(j.Findings) == 0 {
		t.Fatalf("a worker lost with no exit status: %s conclusive=%v findings=%d, want inconclusive with the findings kept", j.Verdict, j.Conclusive, len(j.Findings))
	}
	if !strings.Contains(strings.Join(j.Reasons, "\n"), "load worker 1 (pod osctl-stress-w-1)") {
		t.Errorf("reasons %v do not name the worker", j.Reasons)
	}
}
