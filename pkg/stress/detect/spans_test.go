package detect

import (
	"testing"
	"time"
)

func TestAboveTheCeiling(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	spans := []Span{{Start: at(0), End: at(10), Job: "a"}, {Start: at(2), End: at(6), Job: "b"}, {Start: at(4), End: at(8), Job: "c"}, {Start: at(20), End: at(21), Job: "d"}}
	got := Above(spans, 2)
	if len(got) != 1 || !got[0].Start.Equal(at(4)) || !got[0].End.Equal(at(6)) {
		t.Fatalf("above 2: %+v", got)
	}
	if got := Above(spans, 1); len(got) != 1 || !got[0].Start.Equal(at(2)) || !got[0].End.Equal(at(8)) {
		t.Fatalf("above 1: %+v", got)
	}
	if got := Above(spans, 3); len(got) != 0 {
		t.Fatalf("above 3: %+v", got)
	}
}
