package openstudio

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// inflightHistory is two replicas' load around a kill of replica 1 at 100 ms and a pause of
// replica 0 from 300 to 500 ms.
func inflightHistory() *history.History {
	zero, one := 0, 1
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	req := func(seq int64, target, analysis string, start, end int, outcome string) history.Record {
		r := history.Record{Kind: history.KindRequest, Seq: seq, Op: history.OpUpload, Target: target, Upload: history.Upload{Analysis: analysis}, Start: ms(start), Outcome: outcome}
		if end >= 0 {
			r.End = ms(end)
		}
		return r
	}
	return &history.History{
		Header: history.Header{Profile: "openstudio", Targets: []string{"http://r0", "http://r1"},
			TargetInfo: []history.TargetInfo{{URL: "http://r0", Sandbox: true, Replica: &zero}, {URL: "http://r1", Sandbox: true, Replica: &one}}},
		Records: []history.Record{
			{Kind: history.KindRequest, Seq: 1, Op: history.OpCreateAnalysis, Setup: true, Target: "http://r1", Start: ms(0), End: ms(200)},
			req(2, "http://r1", "a", 50, 100, history.Ambiguous),   // cut by the kill: caught
			req(3, "http://r1", "b", 90, -1, history.Ambiguous),    // never answered: caught
			req(4, "http://r1", "a", 10, 99, history.Acknowledged), // answered before: not caught
			req(5, "http://r1", "a", 101, 150, history.Rejected),   // sent after: not caught
			req(6, "http://r0", "a", 80, 2100, history.Acknowledged),
			req(7, "http://r0", "a", 120, 900, history.Acknowledged),
			req(8, "http://r0", "c", 400, 450, history.Acknowledged), // sent during the pause: caught by it
			req(9, "http://r0", "c", 200, 310, history.Acknowledged), // answered during the pause: caught
			req(10, "http://r0", "c", 100, 299, history.Acknowledged),
			{Kind: history.KindReadback, Seq: 11, Op: "analysis", Target: "http://r1", Start: ms(90), End: ms(110)},
		},
		Footer: &history.Footer{Finished: ms(3000), Faults: []nemesis.Fault{
			{Kind: nemesis.KillReplica, At: nemesis.Duration(100 * time.Millisecond), Target: "replica 1 (pid 42)", Outcome: nemesis.Done, Injected: ms(100)},
			{Kind: nemesis.PauseReplica, Target: "replica 0 (pid 41)", Outcome: nemesis.Done, Injected: ms(300), Ended: ms(500), For: nemesis.Duration(200 * time.Millisecond)},
			{Kind: nemesis.KillReplica, Target: "replica 1 (pid 43)", Outcome: nemesis.NotInjected},
			{Kind: nemesis.KillReplica, Target: "replica 1 (pid 43)", Outcome: "failed: process 43 is gone", Injected: ms(200)},
		}},
	}
}

// TestFaultsOfARunWithoutRecords: the http profile keeps no request records, so its faults come
// back without InFlight (not a count of zero that nothing measured), and nothing is blamed.
func TestFaultsOfARunWithoutRecords(t *testing.T) {
	h := inflightHistory()
	h.Header.Profile = "http"
	faults, blocked := detect.FaultsCaught(h)
	if len(faults) != 4 || blocked != nil {
		t.Fatalf("faults %+v, blocked %+v", faults, blocked)
	}
	for _, f := range faults {
		if f.InFlight != nil {
			t.Errorf("fault %v of an http run counts %+v in flight", f, f.InFlight)
		}
	}
}

func TestFaultsCaughtInFlight(t *testing.T) {
	h := inflightHistory()
	faults, blocked := detect.FaultsCaught(h)
	if len(faults) != 4 {
		t.Fatalf("faults %+v", faults)
	}
	kill := faults[0].InFlight
	if kill == nil || kill.Requests != 2 || kill.Ambiguous != 2 || !reflect.DeepEqual(kill.Seqs, []int64{2, 3}) || kill.Scope != "replica 1 (http://r1)" {
		t.Errorf("the kill caught %+v, want requests 2 and 3 on replica 1, both ambiguous", kill)
	}
	pause := faults[1].InFlight
	if pause == nil || !reflect.DeepEqual(pause.Seqs, []int64{6, 7, 8, 9}) || pause.Acknowledged != 4 {
		t.Errorf("the pause caught %+v, want 6, 7, 8 and 9 on replica 0", pause)
	}
	if faults[2].InFlight != nil || faults[3].InFlight != nil {
		t.Errorf("a fault not injected or whose injection failed caught requests: %+v %+v", faults[2].InFlight, faults[3].InFlight)
	}
	if h.Footer.Faults[0].InFlight != nil {
		t.Error("detect.FaultsCaught changed the footer's faults")
	}
	// The kill caught requests on a and b; replica 0's longest wait on them after it is request
	// 6's, from the kill (100 ms) to its answer (2100 ms). The pause caught requests on a and c,
	// and replica 1 took none of those after it.
	want := []detect.Blocked{{Fault: "kill-replica@100ms", Analysis: "a", Seq: 6, Seconds: 2}}
	if !reflect.DeepEqual(blocked, want) {
		t.Errorf("blocked %+v, want %+v", blocked, want)
	}
}

func TestFaultsCaughtScope(t *testing.T) {
	h := inflightHistory()
	h.Footer.Faults = []nemesis.Fault{
		{Kind: nemesis.RestartRedis, Target: "redis-server 127.0.0.1:1 (pid 9)", Outcome: nemesis.Done, Injected: t0.Add(100 * time.Millisecond)},
		{Kind: nemesis.KillReplica, Target: "pod ns/web-1", Outcome: nemesis.Done, Injected: t0.Add(100 * time.Millisecond)},
		{Kind: nemesis.PauseReplica, Target: "replica 0 (pid 1)", Outcome: "failed: resuming: no such process", Injected: t0.Add(2000 * time.Millisecond)},
	}
	faults, _ := detect.FaultsCaught(h)
	for i, want := range []struct {
		scope string
		seqs  []int64
	}{
		{"every target (a Redis fault", []int64{2, 3, 6, 10}},
		{"every target (the history does not say which target is pod ns/web-1)", []int64{2, 3, 6, 10}},
		{"replica 0 (http://r0)", []int64{6}}, // a pause whose end was not recorded lasts to the end of the run
	} {
		in := faults[i].InFlight
		if in == nil || !strings.HasPrefix(in.Scope, want.scope) || !reflect.DeepEqual(in.Seqs, want.seqs) {
			t.Errorf("fault %v caught %+v, want scope %q and seqs %v", faults[i], in, want.scope, want.seqs)
		}
	}
	if f, _ := detect.FaultsCaught(&history.History{Header: h.Header, Records: h.Records}); f != nil {
		t.Errorf("a history without a footer: %+v", f)
	}
}

// TestCaughtRequestsAreNeverFindings: an upload a kill cut off is ambiguous; the verdict finds
// nothing whether the state holds its zip (it may have been applied) or not.
func TestCaughtRequestsAreNeverFindings(t *testing.T) {
	s := buildScenario(t, 3, "")
	var cut *history.Record
	for i := range s.h.Records {
		if r := &s.h.Records[i]; r.Op == history.OpUpload && r.Outcome == history.Ambiguous {
			cut = r
			break
		}
	}
	if cut == nil {
		t.Fatal("the scenario has no ambiguous upload to cut")
	}
	s.h.Footer.Faults = []nemesis.Fault{{Kind: nemesis.KillReplica, Target: "replica 0 (pid 7)", Outcome: nemesis.Done, Injected: cut.Start.Add(time.Millisecond)}}
	faults, _ := detect.FaultsCaught(s.h)
	if in := faults[0].InFlight; in == nil || in.Ambiguous == 0 || !contains(in.Seqs, cut.Seq) {
		t.Fatalf("the kill caught %+v, want the ambiguous upload %d", in, cut.Seq)
	}
	zip := "server/assets/analyses/" + cut.Analysis + "/original/" + profile.ZipName(testRun)
	applied := snapshot.NewState()
	for p, f := range s.st.Files {
		applied.Files[p] = f
	}
	applied.Files[zip] = snapshot.File{Size: cut.Size, Hash: cut.Hash}
	for name, st := range map[string]*snapshot.State{"not applied": s.st, "applied": applied} {
		if j := judgeFiles(s.h, st, detect.Options{}); len(j.Findings) != 0 || j.Verdict != detect.Clean {
			t.Errorf("%s: verdict %s, findings %+v", name, j.Verdict, j.Findings)
		}
	}
	// The same state is a finding when the upload was not cut off but rejected: the test can fail.
	cut.Outcome = history.Rejected
	if j := judgeFiles(s.h, applied, detect.Options{}); len(j.Findings) == 0 {
		t.Errorf("a rejected upload's zip in the state is no finding")
	}
}

func contains(s []int64, v int64) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestFaultsCaughtOnAPod: with --target-pods the history names each target's pod (the header's,
// and the footer's taken in during the load), so a kill of pod ns/web-1 counts only the requests
// on that pod's forward.
func TestFaultsCaughtOnAPod(t *testing.T) {
	h := inflightHistory()
	h.Header.TargetInfo[0].Pod = "web-0"
	h.Footer.TargetsAdded = []history.TargetInfo{{URL: "http://r1", Pod: "web-1", Added: true}}
	h.Header.TargetInfo = h.Header.TargetInfo[:1]
	h.Footer.Faults = []nemesis.Fault{{Kind: nemesis.KillReplica, Target: "pod ns/web-1", Outcome: nemesis.Done, Injected: t0.Add(100 * time.Millisecond)}}
	faults, _ := detect.FaultsCaught(h)
	in := faults[0].InFlight
	if in == nil || in.Scope != "pod ns/web-1 (http://r1)" || !reflect.DeepEqual(in.Seqs, []int64{2, 3}) || in.Ambiguous != 2 {
		t.Errorf("the kill of pod web-1 caught %+v, want requests 2 and 3 on its forward, both ambiguous", in)
	}
	if urls, any := lostPodTargets(h); any || len(urls) != 1 || !urls["http://r1"] {
		t.Errorf("the pod killed by the nemesis: lost targets %v (any %v), want http://r1 alone", urls, any)
	}
	h.Footer.Faults[0].Target = "pod ns/web-behind-a-service"
	if _, any := lostPodTargets(h); !any {
		t.Error("a killed pod the history names no target of does not count for any start")
	}
	h.Footer.Faults = nil
	if urls, any := lostPodTargets(h); any || len(urls) != 0 {
		t.Errorf("a run whose pods all stayed lost %v (any %v)", urls, any)
	}
	h.Footer.TargetsGone = []string{"http://r1"}
	if urls, _ := lostPodTargets(h); !urls["http://r1"] {
		t.Error("a pod let go during the load is not a lost target")
	}
}
