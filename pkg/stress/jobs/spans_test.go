package jobs

import (
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// TestSurelyActive: a job seen running by two polls is surely active between them (detect's
// TestAboveTheCeiling checked it there, with SurelyActive).
func TestSurelyActive(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	// A job seen running by two polls is surely active between them.
	h := &history.History{Records: []history.Record{
		{Kind: history.KindRequest, Op: history.OpSubmitJob, Seq: 1, Returned: "j1", Outcome: history.Acknowledged, Start: at(0), End: at(0)},
		{Kind: history.KindJob, JobFollow: history.JobFollow{Job: "j1", Runs: []history.StateRun{{State: "running", Polls: 3, FirstStart: at(1), FirstEnd: at(2), LastStart: at(5), LastEnd: at(6)}}}},
	}}
	if s := SurelyActive(h); len(s) != 1 || s[0].Job != "j1" || !s[0].Start.Equal(at(2)) || !s[0].End.Equal(at(5)) {
		t.Fatalf("surely active %+v", s)
	}
}
