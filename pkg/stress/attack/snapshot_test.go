package attack

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestMergeIsTheUnion: the statistics of three parts of a load, each sent as a Snapshot and
// merged, are those of the whole load: the counts exactly, and the same latency percentiles.
func TestMergeIsTheUnion(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var all []Result
	var outs []Outcome
	parts := make([][]Result, 3)
	partOuts := make([][]Outcome, 3)
	for i := 0; i < 3000; i++ {
		start := t0.Add(time.Duration(i) * time.Millisecond)
		r := Result{Seq: uint64(i), Start: start, Intended: start, End: start.Add(time.Duration(rng.ExpFloat64()*20e6) + time.Microsecond), Status: 200, Sent: true}
		out := Acknowledged
		switch {
		case i%17 == 0:
			r.Status, out = 503, Rejected
		case i%29 == 0:
			r.Status, r.Timeout, out = 0, true, Ambiguous
		}
		all, outs = append(all, r), append(outs, out)
		parts[i%3], partOuts[i%3] = append(parts[i%3], r), append(partOuts[i%3], out)
	}
	var snaps []Snapshot
	for i := range parts {
		s, err := Replay(parts[i], partOuts[i]).Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, s)
	}
	m, err := Merge(snaps)
	if err != nil {
		t.Fatal(err)
	}
	whole := Replay(all, outs)
	if m.Counts() != whole.Counts() {
		t.Fatalf("merged counts %+v, the whole load's %+v", m.Counts(), whole.Counts())
	}
	got, want := Summarize(m.Histogram()), Summarize(whole.Histogram())
	if got.Count != want.Count || got.P50 != want.P50 || got.P90 != want.P90 || got.P99 != want.P99 || got.Max != want.Max {
		t.Fatalf("merged latency %+v, the whole load's %+v", got, want)
	}
	if !m.Began.Equal(whole.Began) || !m.Ended.Equal(whole.Ended) {
		t.Fatalf("merged span %v-%v, the whole load's %v-%v", m.Began, m.Ended, whole.Began, whole.Ended)
	}
}

// TestMergeSumsTimelines: the requests in flight at each moment are the sum of each part's last
// sample at or before it, and a part adds nothing after it ended.
func TestMergeSumsTimelines(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	a := Snapshot{Began: at(0), Ended: at(30), Timeline: []Sample{{At: at(0), InFlight: 4}, {At: at(20), InFlight: 2}}, Peak: 4}
	b := Snapshot{Began: at(10), Ended: at(50), Timeline: []Sample{{At: at(10), InFlight: 3}, {At: at(40), InFlight: 1}}, Peak: 3}
	m, err := Merge([]Snapshot{a, b})
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{4, 7, 5, 1} // at 0, 10, 20, 40 (a ended at 30)
	tl := m.Timeline()
	if len(tl) != len(want) {
		t.Fatalf("timeline %+v", tl)
	}
	for i, s := range tl {
		if s.InFlight != want[i] {
			t.Errorf("at %s: %d in flight, want %d", s.At.Sub(t0), s.InFlight, want[i])
		}
	}
	if m.PeakInFlight() != 7 {
		t.Errorf("peak %d, want 7", m.PeakInFlight())
	}
}
