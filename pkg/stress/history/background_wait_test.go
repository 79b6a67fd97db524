package history

import (
	"encoding/json"
	"testing"
)

// TestFooterReadsOldWorkerWaits: a footer written before the rename (worker_waits, worker_seen)
// reads as background waits; the new spelling round-trips.
func TestFooterReadsOldWorkerWaits(t *testing.T) {
	var old Footer
	if err := json.Unmarshal([]byte(`{"partial":false,"worker_waits":[{"at_s":1.5,"waited_s":0.4,"worker_seen":true,"jobs_ran":2},{"at_s":3,"waited_s":15}]}`), &old); err != nil {
		t.Fatal(err)
	}
	want := []BackgroundWait{{AtS: 1.5, WaitedS: 0.4, Taken: true, JobsRan: 2}, {AtS: 3, WaitedS: 15}}
	if len(old.BackgroundWaits) != 2 || old.BackgroundWaits[0] != want[0] || old.BackgroundWaits[1] != want[1] {
		t.Fatalf("old footer read as %+v", old.BackgroundWaits)
	}
	b, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	var again Footer
	if err := json.Unmarshal(b, &again); err != nil || len(again.BackgroundWaits) != 2 || again.BackgroundWaits[0] != want[0] {
		t.Fatalf("round trip of %s: %+v %v", b, again.BackgroundWaits, err)
	}
}
