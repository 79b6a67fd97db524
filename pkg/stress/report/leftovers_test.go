package report_test

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/report"
)

// TestLeftoversInTheReport: a run with a kill gets its requests in flight counted on the fault,
// and what the footer recorded as left behind in the JSON, the summary's lines and the HTML,
// with the verdict and exit code of the same run without them.
func TestLeftoversInTheReport(t *testing.T) {
	h, st := synthetic(300, 3)
	var at time.Time
	for _, rec := range h.Records {
		if rec.Kind == history.KindRequest && !rec.Setup && rec.Target == "http://127.0.0.1:9002" && rec.End.Sub(rec.Start) > 2*time.Millisecond {
			at = rec.Start.Add(time.Millisecond)
			break
		}
	}
	h.Footer = &history.Footer{Finished: at.Add(time.Minute), Settled: true,
		Faults: []nemesis.Fault{{Kind: nemesis.KillReplica, Target: "replica 2 (pid 42)", Outcome: nemesis.Done, Injected: at}}}
	without := build(h, st)
	h.Footer.Leftovers = &history.Leftovers{ReadAt: at.Add(time.Minute),
		TempFiles:  []history.LeftoverFile{{Path: "server/assets/analyses/a/original/.osctl-tmp-1", Size: 7}},
		LockFiles:  []history.LeftoverFile{{Path: "server/analyses/a/analysis_zip.lock", Status: "stale"}},
		RedisLocks: []history.LeftoverLock{{Key: "redlock:a:analysis_zip", Value: "osctl:v1:h:42:x", HolderPID: 42, Held: 1, Masters: 1, TTLMillis: 5000, Status: "stale", Reason: "holder pid 42 is not a running replica"}}}
	r := build(h, st)
	if r.Verdict != without.Verdict || r.ExitCode() != without.ExitCode() || len(r.Findings) != len(without.Findings) {
		t.Fatalf("the leftovers changed the verdict: %s (exit %d), without them %s (exit %d)", r.Verdict, r.ExitCode(), without.Verdict, without.ExitCode())
	}
	in := r.Faults[0].InFlight
	if in == nil || in.Requests == 0 || !strings.HasPrefix(in.Scope, "replica 2 (") {
		t.Fatalf("in flight at the kill: %+v", in)
	}
	var b bytes.Buffer
	if err := report.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Faults []struct {
			InFlight struct{ Requests int } `json:"in_flight"`
		} `json:"faults"`
		Leftovers struct {
			Read       bool              `json:"read"`
			TempFiles  []json.RawMessage `json:"temp_files"`
			LockFiles  []json.RawMessage `json:"lock_files"`
			RedisLocks []json.RawMessage `json:"redis_locks"`
			BlockedFor []json.RawMessage `json:"blocked_for"`
		} `json:"leftovers"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	l := doc.Leftovers
	if doc.Faults[0].InFlight.Requests != in.Requests || !l.Read || len(l.TempFiles) != 1 || len(l.LockFiles) != 1 || len(l.RedisLocks) != 1 || l.BlockedFor == nil {
		t.Errorf("JSON report: %s", b.String()[strings.Index(b.String(), `"faults"`):][:600])
	}
	lines := strings.Join(r.FaultLines(), "\n")
	for _, want := range []string{"caught " + itoa(in.Requests) + " request(s) in flight on replica 2", "1 lock file(s), 1 temp file(s), 1 Redis lock(s) (1 stale)",
		"redis lock redlock:a:analysis_zip: stale", "temp file server/assets/analyses/a/original/.osctl-tmp-1 (7 bytes)"} {
		if !strings.Contains(lines, want) {
			t.Errorf("the summary lacks %q:\n%s", want, lines)
		}
	}
	s, doc2 := writePage(t, r)
	if !hasID(doc2, "leftovers") || !strings.Contains(s, `data-redis-locks="1"`) || !strings.Contains(s, "osctl:v1:h:42:x") || !strings.Contains(s, `data-in-flight="`+itoa(in.Requests)+`"`) {
		t.Errorf("the page has no leftovers section or in-flight count")
	}
	h.Footer.Leftovers = nil
	if r := build(h, st); r.Leftovers == nil || r.Leftovers.Read || !strings.Contains(strings.Join(r.FaultLines(), "\n"), "leftovers: not read") {
		t.Errorf("a run that read no leftovers: %+v", r.Leftovers)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
