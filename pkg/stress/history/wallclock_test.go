package history

import (
	"encoding/json"
	"testing"
	"time"
)

// TestWallClockMatchesTheFile: real clock readings, once WallClock drops their monotonic part,
// give the durations the same records give once read back from JSON, for requests, replays and
// polls. (A duration between two readings that keep their monotonic part often differs from the
// wall clock's by a few nanoseconds while the clock is slewed; TestJudgeEqualsTheRun in
// pkg/stress checks the whole report.)
func TestWallClockMatchesTheFile(t *testing.T) {
	for i := range 200 {
		start := time.Now()
		time.Sleep(100 * time.Microsecond)
		end := time.Now()
		rec := Record{Kind: KindRequest, Start: start, End: end, JobFollow: JobFollow{Replay: &Replay{Start: start, End: end}, Runs: []StateRun{{State: "running", FirstStart: start, FirstEnd: end, LastStart: start, LastEnd: end}}}}
		kept := rec.WallClock()
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		var back Record
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name      string
			kept, got time.Duration
		}{
			{"request", kept.End.Sub(kept.Start), back.End.Sub(back.Start)},
			{"replay", kept.Replay.End.Sub(kept.Replay.Start), back.Replay.End.Sub(back.Replay.Start)},
			{"poll", kept.Runs[0].LastEnd.Sub(kept.Runs[0].FirstStart), back.Runs[0].LastEnd.Sub(back.Runs[0].FirstStart)},
		} {
			if c.kept != c.got {
				t.Fatalf("reading %d, %s: kept %v, the file %v", i, c.name, c.kept, c.got)
			}
		}
		if rec.Replay == kept.Replay || &rec.Runs[0] == &kept.Runs[0] {
			t.Fatalf("WallClock shares the replay or the polls with the original")
		}
	}
}
