package workers

import (
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
)

// TestLostSnapshotFoldsTheRecords: a lost worker's figures are those of the load requests it
// ended (folded as they came) and of those it was lost with in flight (ambiguous); its setup
// requests are not load.
func TestLostSnapshotFoldsTheRecords(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := &conn{index: 1, pending: map[int64]*history.Record{}, replay: attack.NewReplayer(), lost: make(chan struct{}),
		now: func() time.Time { return t0.Add(time.Hour) }}
	var got []*history.Record
	c.observe(func(r *history.Record) { got = append(got, r) }, nil, nil)
	c.onRecord(tRec, &history.Record{Kind: history.KindRequest, Seq: 0, Setup: true, Outcome: history.Acknowledged, Status: 201, Start: t0, End: t0})
	for i := int64(1); i <= 300; i++ {
		out, status := history.Acknowledged, 200
		if i%3 == 0 {
			out, status = history.Rejected, 503
		}
		s := t0.Add(time.Duration(i) * time.Millisecond)
		c.onRecord(tRec, &history.Record{Kind: history.KindRequest, Seq: i, Outcome: out, Status: status, Start: s, End: s.Add(5 * time.Millisecond)})
	}
	c.onRecord(tSent, &history.Record{Kind: history.KindRequest, Seq: 301, Start: t0.Add(time.Second)})
	c.lose(errLost{})
	if n := c.unanswered(); n != 1 {
		t.Fatalf("%d requests in flight, want 1", n)
	}
	s := c.lostSnapshot(true)
	if s.Counts.Total != 301 || s.Counts.Acknowledged != 200 || s.Counts.Rejected != 100 || s.Counts.Ambiguous != 1 {
		t.Fatalf("counts %+v: want the 301 load requests, 200 acknowledged, 100 rejected, 1 ambiguous", s.Counts)
	}
	if !s.Began.Equal(t0.Add(time.Millisecond)) || !s.Ended.Equal(t0.Add(time.Hour)) {
		t.Fatalf("span %v-%v", s.Began, s.Ended)
	}
	if len(got) != 302 || *got[301].Worker != 1 || got[301].Outcome != history.Ambiguous {
		t.Fatalf("%d records passed on; the last %+v", len(got), got[len(got)-1])
	}
}

type errLost struct{}

func (errLost) Error() string { return "gone" }
