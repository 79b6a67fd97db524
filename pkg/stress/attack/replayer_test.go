package attack

import (
	"testing"
	"time"
)

// TestReplayerIsBounded: a Replayer fed a long load keeps a fixed number of in-flight slices
// whatever the number of requests, and still gives their counts, span and requests in flight
// (four lanes of back-to-back requests: four in flight throughout).
func TestReplayerIsBounded(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := NewReplayer()
	const lanes, each = 4, 50000
	d := 20 * time.Millisecond
	for i := 0; i < each; i++ {
		for l := 0; l < lanes; l++ {
			start := t0.Add(time.Duration(i) * d)
			r := Result{Start: start, Intended: start, End: start.Add(d), Status: 200, Sent: true}
			p.Add(&r, Acknowledged)
		}
	}
	if len(p.fl.delta) != maxFlightSlices {
		t.Fatalf("%d in-flight slices kept, want %d whatever the load", len(p.fl.delta), maxFlightSlices)
	}
	s := p.Stats()
	if c := s.Counts(); c.Total != lanes*each || c.Acknowledged != lanes*each {
		t.Fatalf("counts %+v", c)
	}
	if !s.Began.Equal(t0) || !s.Ended.Equal(t0.Add(each*d)) {
		t.Fatalf("span %v-%v", s.Began, s.Ended)
	}
	tl := s.Timeline()
	if len(tl) == 0 || len(tl) > maxFlightSlices {
		t.Fatalf("%d samples", len(tl))
	}
	for _, x := range tl {
		if x.InFlight != lanes {
			t.Fatalf("sample %+v: want %d in flight", x, lanes)
		}
	}
	if s.PeakInFlight() != lanes {
		t.Fatalf("peak %d, want %d", s.PeakInFlight(), lanes)
	}
	if got := Summarize(s.Histogram()); got.P50 < 19.9 || got.P50 > 20.1 {
		t.Fatalf("p50 %v ms, want 20", got.P50)
	}
}
