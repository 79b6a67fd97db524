package report

import (
	"reflect"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// TestFoldIsTheRecordsBreakdown: folding the load one record at a time gives the breakdown the
// records give (the same counts, steps and requests in flight; latencies to three significant
// digits per operation and target and to two over time; in flight, those open at each bucket's
// edges), for the records of TestOverTimeBuckets and TestBreakdowns.
func TestFoldIsTheRecordsBreakdown(t *testing.T) {
	recs := twoSecondsOfLoad()
	f := NewLoadFold(t0)
	var load []*history.Record
	for i := range recs {
		f.Add(&recs[i])
		load = append(load, &recs[i])
	}
	got, want := f.series.series(), overTime(load)
	// In flight: those open at a bucket's edges (the records' sweep sees the three overlapping
	// in [60 ms, 90 ms); the fold sees two open at 100 ms).
	if got.Points[0].InFlight != 2 || got.Points[17].InFlight != 1 || got.Points[10].InFlight != 0 {
		t.Fatalf("in flight %d %d %d", got.Points[0].InFlight, got.Points[17].InFlight, got.Points[10].InFlight)
	}
	for _, s := range []*Series{got, want} {
		for i := range s.Points {
			s.Points[i].InFlight = 0
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("folded series %+v\nfrom the records %+v", got, want)
	}

	targets, h := uploadsOnTwoTargets()
	h.Records = append(h.Records, history.Record{Kind: history.KindRequest, Seq: 200, Op: history.OpCreateAnalysis, Setup: true})
	f = NewLoadFold(t0)
	for i := range h.Records {
		f.Add(&h.Records[i])
	}
	if got, want := f.perOperation(h), perOperation(h, loadRecords(h)); !reflect.DeepEqual(got, want) {
		t.Errorf("folded per operation %+v\nfrom the records %+v", got, want)
	}
	if got, want := f.perTarget(targets), perTarget(loadRecords(h), targets); !reflect.DeepEqual(got, want) {
		t.Errorf("folded per target %+v\nfrom the records %+v", got, want)
	}
}

// TestFoldIsBounded: a two-hour load folds into at most maxBuckets buckets of ten seconds (the
// step stepFor gives that span), every request counted.
func TestFoldIsBounded(t *testing.T) {
	f := NewLoadFold(t0)
	const n = 72000 // one every 100 ms
	for i := 0; i < n; i++ {
		r := req(int64(i), "", "http://x", history.Acknowledged, i*100, 1234)
		f.Add(&r)
		if len(f.series.points) > maxBuckets {
			t.Fatalf("%d buckets kept after %d requests", len(f.series.points), i+1)
		}
	}
	s := f.series.series()
	if s.StepS != stepFor(2*time.Hour).Seconds() || len(s.Points) > maxBuckets {
		t.Fatalf("step %v s, %d points", s.StepS, len(s.Points))
	}
	ack := 0
	for _, p := range s.Points {
		ack += p.Acknowledged
	}
	ops := f.perOperation(&history.History{Header: history.Header{Profile: "http"}})
	if ack != n || len(ops) != 1 || ops[0].Sent != n || ops[0].P50 != 1230 {
		t.Fatalf("%d acknowledged over time, per operation %+v", ack, ops)
	}
}
