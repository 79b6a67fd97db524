package report_test

import (
	"fmt"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/openstudio"
	"github.com/osctl/osctl/pkg/stress/report"
	"github.com/osctl/osctl/pkg/stress/snapshot"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

var t0 = time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)

// synthetic is the history of an openstudio run of n load requests over the given analyses on
// three sandbox replicas without locking, and the state such a run leaves: each analysis's zip
// matches no upload (torn), its extraction mixes the entries of two uploads (mixed), and every
// 50th result id was answered to two uploads (duplicate). The load lasts about 30 s.
func synthetic(n, analyses int) (*history.History, *snapshot.State) {
	targets := []string{"http://127.0.0.1:9001", "http://127.0.0.1:9002", "http://127.0.0.1:9003"}
	h := &history.History{Header: history.Header{Schema: history.SchemaVersion, Run: "0badc0de", Profile: "openstudio", Targets: targets,
		Requests: n, Concurrency: 500, Analyses: analyses, Started: t0, Thresholds: verdict.Thresholds{MinAcknowledged: 0.5, MinContended: 0.5},
		Mix: map[string]int{"upload": 5, "start": 2, "data_point": 1, "upload_file": 2}}}
	for i, u := range targets {
		rep := i + 1
		h.Header.TargetInfo = append(h.Header.TargetInfo, history.TargetInfo{URL: u, Sandbox: true, Replica: &rep, Locking: "none"})
	}
	seq := int64(0)
	add := func(r history.Record) *history.Record {
		seq++
		r.Kind, r.Seq = history.KindRequest, seq
		h.Records = append(h.Records, r)
		return &h.Records[len(h.Records)-1]
	}
	add(history.Record{Op: history.OpCreateProject, Setup: true, Target: targets[0], Start: t0, End: t0.Add(5 * time.Millisecond), Status: 200, Outcome: history.Acknowledged, Returned: "p1"})
	aid := func(a int) string { return fmt.Sprintf("0badc0de-%04x-4000-8000-000000000000", a) }
	for a := 0; a < analyses; a++ {
		at := t0.Add(time.Duration(10+a) * time.Millisecond)
		add(history.Record{Op: history.OpCreateAnalysis, Setup: true, Target: targets[a%3], Upload: history.Upload{Analysis: aid(a)}, ID: aid(a), Start: at, End: at.Add(3 * time.Millisecond), Status: 200, Outcome: history.Acknowledged, Returned: aid(a)})
	}
	load0 := t0.Add(time.Second)
	uploads := map[string][]*history.Record{}
	results := map[string][]*history.Record{}
	ops := []string{history.OpUpload, history.OpUpload, history.OpUpload, history.OpUpload, history.OpUpload, history.OpStart, history.OpStart, history.OpCreateDataPoint, history.OpUploadFile, history.OpUploadFile}
	for i := 0; i < n; i++ {
		a := aid(i % analyses)
		start := load0.Add(time.Duration(i) * 30 * time.Second / time.Duration(n))
		dur := time.Duration(5+(i*37)%200) * time.Millisecond
		r := history.Record{Op: ops[(i/analyses)%len(ops)], Target: targets[i%3], Upload: history.Upload{Analysis: a}, Nonce: fmt.Sprintf("osctl-0badc0de-%08x", i), Start: start, End: start.Add(dur), Status: 200, Outcome: history.Acknowledged}
		switch {
		case i%23 == 7:
			r.Status, r.Outcome, r.Body = 503, history.Rejected, "Request queue full"
		case i%41 == 3:
			r.Status, r.Outcome, r.Error = 0, history.Ambiguous, "read: connection reset by peer"
		}
		switch r.Op {
		case history.OpUpload:
			r.File, r.Hash, r.Size = "seed.zip", fmt.Sprintf("zip%06d", i), 4096
			r.Manifest = []history.Entry{{Name: "a.osm", Hash: fmt.Sprintf("a%06d", i)}, {Name: "b.rb", Hash: fmt.Sprintf("b%06d", i)}}
			uploads[a] = append(uploads[a], add(r))
		case history.OpUploadFile:
			id := fmt.Sprintf("r%06d", i)
			if i%50 == 8 {
				id = fmt.Sprintf("r%06d", i-10) // answered the id of an earlier upload
			}
			r.File, r.Hash, r.Size, r.Returned, r.DataPoint = "out.csv", fmt.Sprintf("csv%06d", i), 100, id, "dp"+a[:8]
			if r.Outcome != history.Acknowledged {
				r.Returned = ""
			}
			results[id] = append(results[id], add(r))
		case history.OpCreateDataPoint:
			if r.Applied() {
				r.Returned = fmt.Sprintf("dp%06d", i)
			}
			add(r)
		default:
			add(r)
		}
	}
	end := load0.Add(31 * time.Second)
	for a := 0; a < analyses; a++ {
		seq++
		h.Records = append(h.Records, history.Record{Kind: history.KindReadback, Seq: seq, Op: history.ReadbackStatus, ID: aid(a), Status: 200, Upload: history.Upload{Found: true, Jobs: []history.JobState{{Index: 0, Status: "completed"}}}})
	}
	h.Footer = &history.Footer{Finished: end.Add(10 * time.Second), Settled: true, StateRead: end.Add(8 * time.Second), Engine: attack.EngineGoroutines}
	st := snapshot.NewState()
	for a, ups := range uploads {
		var acked []*history.Record
		for _, u := range ups {
			if u.Applied() {
				acked = append(acked, u)
			}
		}
		st.Files["server/assets/analyses/"+a+"/original/seed.zip"] = snapshot.File{Size: 4000, Hash: "torn-" + a}
		if len(acked) >= 2 {
			first, last := acked[0], acked[len(acked)-1]
			st.Files["server/analyses/"+a+"/a.osm"] = snapshot.File{Hash: first.Manifest[0].Hash}
			st.Files["server/analyses/"+a+"/b.rb"] = snapshot.File{Hash: last.Manifest[1].Hash}
		}
	}
	for id, rs := range results {
		for _, r := range rs {
			if r.Applied() {
				st.Files["server/assets/data_points/"+id+"/files/original/out.csv"] = snapshot.File{Hash: r.Hash, Size: r.Size}
			}
		}
	}
	return h, st
}

// build judges a synthetic run and makes its report, as stress.Judge does.
func build(h *history.History, st *snapshot.State) *report.Report {
	o := detect.OptionsOf(h)
	o.Rules = openstudio.Rules{}
	return report.Build(h, history.LoadStats(h), detect.Judge(h, st, o), "test")
}
