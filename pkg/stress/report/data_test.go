package report

import (
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// t0 is when the test runs begin.
var t0 = time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)

func req(seq int64, op, target, outcome string, startMS, durMS int) history.Record {
	s := t0.Add(time.Duration(startMS) * time.Millisecond)
	status := 200
	if outcome == history.Rejected {
		status = 503
	}
	return history.Record{Kind: history.KindRequest, Seq: seq, Op: op, Target: target, Outcome: outcome, Status: status,
		Start: s, End: s.Add(time.Duration(durMS) * time.Millisecond)}
}

// twoSecondsOfLoad are five requests over 2 s: three acknowledged, one rejected, one ambiguous.
func twoSecondsOfLoad() []history.Record {
	return []history.Record{
		req(1, "upload", "a", history.Acknowledged, 0, 100),
		req(2, "upload", "a", history.Acknowledged, 50, 100),
		req(3, "start", "b", history.Rejected, 60, 30),
		req(4, "start", "b", history.Ambiguous, 1500, 400),
		req(5, "upload", "a", history.Acknowledged, 1990, 10),
	}
}

func TestOverTimeBuckets(t *testing.T) {
	recs := twoSecondsOfLoad()
	var load []*history.Record
	for i := range recs {
		load = append(load, &recs[i])
	}
	s := overTime(load)
	// 2 s of load: buckets of 100 ms (at least 20 buckets, the widest step that gives them).
	if s.StepS != 0.1 || len(s.Points) != 20 || !s.Began.Equal(t0) {
		t.Fatalf("step %v, %d points, began %v", s.StepS, len(s.Points), s.Began)
	}
	var ack, rej, amb int
	for _, p := range s.Points {
		ack, rej, amb = ack+p.Acknowledged, rej+p.Rejected, amb+p.Ambiguous
	}
	if ack != 3 || rej != 1 || amb != 1 {
		t.Fatalf("outcomes %d %d %d", ack, rej, amb)
	}
	// Three requests overlap in [60 ms, 90 ms); the one from 1.5 s runs through the 1.6-1.9 s buckets.
	if s.Points[0].InFlight != 3 || s.Points[17].InFlight != 1 || s.Points[10].InFlight != 0 {
		t.Fatalf("in flight %d %d %d", s.Points[0].InFlight, s.Points[17].InFlight, s.Points[10].InFlight)
	}
	// Bucket 1 (100-200 ms) holds the ends of #1 (100 ms) and #2 (100 ms): p50 = p99 = 100.
	if p := s.Points[1]; p.Acknowledged != 2 || p.P50 != 100 || p.P99 != 100 {
		t.Fatalf("bucket 1: %+v", p)
	}
	for _, c := range []struct {
		span time.Duration
		want time.Duration
	}{{2 * time.Second, 100 * time.Millisecond}, {20 * time.Second, time.Second}, {10 * time.Minute, time.Second}, {time.Hour, 5 * time.Second}, {time.Millisecond, 10 * time.Millisecond}} {
		if got := stepFor(c.span); got != c.want {
			t.Errorf("stepFor(%s) = %s, want %s", c.span, got, c.want)
		}
	}
	if overTime(nil) != nil {
		t.Fatal("a series without requests")
	}
}

// uploadsOnTwoTargets are two replicas' targets and a history of 100 uploads spread over them,
// every tenth rejected.
func uploadsOnTwoTargets() ([]Target, *history.History) {
	one, two := 1, 2
	targets := []Target{{URL: "http://127.0.0.1:9001", Replica: &one}, {URL: "http://127.0.0.1:9002", Replica: &two}}
	h := &history.History{Header: history.Header{Profile: "openstudio"}}
	for i := 0; i < 100; i++ {
		out := history.Acknowledged
		if i%10 == 0 {
			out = history.Rejected
		}
		h.Records = append(h.Records, req(int64(i+1), history.OpUpload, targets[i%2].URL, out, i, i+1))
	}
	return targets, h
}

func TestBreakdowns(t *testing.T) {
	targets, h := uploadsOnTwoTargets()
	h.Records = append(h.Records, history.Record{Kind: history.KindRequest, Seq: 200, Op: history.OpCreateAnalysis, Setup: true, Outcome: history.Acknowledged})
	load := loadRecords(h)
	ops := perOperation(h, load)
	if len(ops) != 4 || ops[0].Name != "upload" || ops[0].Sent != 100 || ops[0].Rejected != 10 || ops[0].Acknowledged != 90 || ops[1].Sent != 0 {
		t.Fatalf("per operation %+v", ops)
	}
	// Latencies 1..100 ms: the nearest-rank p50 is 50, p99 is 99.
	if ops[0].P50 != 50 || ops[0].P99 != 99 {
		t.Fatalf("p50 %v p99 %v", ops[0].P50, ops[0].P99)
	}
	tg := perTarget(load, targets)
	if len(tg) != 2 || tg[0].Name != "replica 1 127.0.0.1:9001" || tg[0].Sent != 50 || tg[1].Sent != 50 || tg[0].Rejected+tg[1].Rejected != 10 {
		t.Fatalf("per target %+v", tg)
	}
	// The jobs profile: a job's polls after the submit's own answer, by what they read.
	jh := &history.History{Header: history.Header{Profile: "jobs"}, Records: []history.Record{{Kind: history.KindJob, JobFollow: history.JobFollow{Job: "j1", Runs: []history.StateRun{
		{State: "queued", Polls: 3}, {State: "running", Polls: 2}, {State: "missing", Polls: 1}, {State: "http-500", Polls: 1}}}}}}
	p := perOperation(jh, nil)
	if len(p) != 1 || p[0].Name != PollOp || p[0].Sent != 6 || p[0].Acknowledged != 4 || p[0].Rejected != 1 || p[0].Ambiguous != 1 {
		t.Fatalf("polls %+v", p)
	}
}

func TestShownSharesTheRowsAmongKinds(t *testing.T) {
	r := &Report{Profile: "openstudio"}
	for i := 0; i < 30; i++ {
		r.Findings = append(r.Findings, detect.Finding{Kind: detect.Mixed, Object: "m"})
	}
	r.Findings = append(r.Findings, detect.Finding{Kind: detect.Torn, Object: "t1"}, detect.Finding{Kind: detect.Torn, Object: "t2"}, detect.Finding{Kind: detect.Lost, Object: "l"})
	gs := r.Shown(10)
	if len(gs) != 3 || gs[0].Kind != detect.Lost || gs[1].Kind != detect.Torn || gs[2].Kind != detect.Mixed ||
		len(gs[0].Indexes) != 1 || len(gs[1].Indexes) != 2 || len(gs[2].Indexes) != 7 {
		t.Fatalf("shown %+v", gs)
	}
	rows := r.FindingRows(10)
	if len(rows) != 10 || rows[0][0] != "lost (1)" || rows[1][0] != "torn (2)" || rows[2][0] != "torn" || rows[3][0] != "mixed (30)" {
		t.Fatalf("rows %q", rows)
	}
	if c := r.CountsLine(); c != "1 lost, 2 torn, 30 mixed" {
		t.Fatalf("counts %q", c)
	}
}

func TestNext(t *testing.T) {
	th := &detect.Thresholds{MinAcknowledged: 0.5, MinContended: 0.5}
	for _, c := range []struct {
		r    Report
		want string
	}{
		{Report{Verdict: detect.Races, Profile: "openstudio"}, "docs/migration/rails-lock-contract.md says, then run this again"},
		{Report{Verdict: detect.Races, Profile: "jobs"}, "docs/migration/jobs.md"},
		{Report{Verdict: detect.Clean, MaxReplicasValidated: 3}, "validated 3 replicas"},
		{Report{Verdict: detect.Inconclusive, Thresholds: th, AckFraction: 0.2, Counts: countsOf(10)}, "only 20% of requests were acknowledged, --min-acknowledged needs 50%: lower --concurrency"},
		{Report{Verdict: detect.Inconclusive, Partial: true, StopReason: "interrupted"}, "run it again to the end"},
		// A clean jobs run names each replica by its own URL: it validated as many as it had.
		{jobsClean("http://r0:8080", "http://r1:8080"), "validated 2 replicas (one per --target URL, each a replica's own)"},
		{jobsClean("http://lb:8080"), "validated 1 replica (one --target URL may be one replica or many"},
		{Report{Verdict: detect.Races, Profile: "jobs", Findings: []detect.Finding{{Kind: detect.Duplicate, Cause: detect.CauseReplayRace}}}, "replay race"},
	} {
		// The CLI names the settings as its flags (Report.NameSettings); kebab-case stands in here.
		c.r.NameSettings(kebabFlag)
		if got := c.r.Next(); !strings.HasPrefix(got, "next: ") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q lacks %q", c.r.Verdict, got, c.want)
		}
	}
}

// kebabFlag names a setting as a flag: MinAcknowledged is --min-acknowledged (Targets --target).
func kebabFlag(name string) string {
	if name == "Targets" {
		return "--target"
	}
	var b strings.Builder
	for i, r := range name {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('-')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return "--" + b.String()
}

func countsOf(n int64) attack.Counts { return attack.Counts{Total: n} }

func jobsClean(urls ...string) Report {
	r := Report{Verdict: detect.Clean, Conclusive: true, Profile: "jobs"}
	for _, u := range urls {
		r.Targets = append(r.Targets, Target{URL: u})
	}
	r.MaxReplicasValidated = ReplicasValidated(&r)
	return r
}

// TestSummaryLatencyWhenNothingAnswered: a run whose every request timed out has no latency to
// show, and says so instead of 0.0ms.
func TestSummaryLatencyWhenNothingAnswered(t *testing.T) {
	r := Report{Counts: attack.Counts{Total: 12, Timeouts: 12, Ambiguous: 12}}
	for _, row := range r.Summary() {
		if row.Measure == "latency" && row.Value != "none: no load request was answered (12 timeouts, 0 transport errors)" {
			t.Fatalf("latency row %q", row.Value)
		}
	}
}
