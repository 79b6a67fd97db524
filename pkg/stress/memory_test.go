package stress

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// TestHTTPHistoryKeepsNoRecords: an http run with a history file writes every load request to
// it and keeps none in memory (the verdict is the attacker's counts, the report's breakdown the
// recorder's fold); reading that history back to judge it keeps none either; and the offline
// report is the live one but for the times the judge measures again.
func TestHTTPHistoryKeepsNoRecords(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if n.Add(1)%7 == 0 {
			w.WriteHeader(http.StatusServiceUnavailable) // some rejected: the counts are not all one outcome
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	u, err := url.Parse(srv.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Profile, cfg.Targets, cfg.Requests, cfg.Concurrency = ProfileHTTP, []*url.URL{u}, 700, 4
	cfg = cfg.WithDefaults()
	path := filepath.Join(t.TempDir(), "h.jsonl")
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	r := &runner{cfg: cfg, d: Deps{History: fh, Now: time.Now}}
	live, err := r.run(context.Background())
	r.close()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(r.rec.records()); got != 0 || r.rec.fold == nil {
		t.Fatalf("the recorder kept %d records (fold %v): an http run's verdict needs none", got, r.rec.fold != nil)
	}
	if live.Counts.Total != 700 || live.Counts.Rejected != 100 || live.Outcomes[history.Rejected] != 100 {
		t.Fatalf("counts %+v, outcomes %v: want 700 requests, 100 rejected", live.Counts, live.Outcomes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(b), `"kind":"request"`); got != 700 {
		t.Fatalf("the history holds %d request records, want 700", got)
	}

	s, err := ReadSaved(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.History.Records) != 0 || s.fold == nil || s.stats == nil {
		t.Fatalf("reading the history kept %d records (fold %v, stats %v): judging an http run needs none",
			len(s.History.Records), s.fold != nil, s.stats != nil)
	}
	again, err := s.Judge(context.Background(), nil, JudgeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, j := reportFields(t, live), reportFields(t, again)
	if len(a["per_target"].([]any)) != 1 || a["over_time"] == nil {
		t.Fatalf("the live report has no breakdown: per_target %v, over_time %v", a["per_target"], a["over_time"])
	}
	for k := range a {
		if !reflect.DeepEqual(a[k], j[k]) {
			t.Errorf("%s differs:\n run:   %.600v\n judge: %.600v", k, a[k], j[k])
		}
	}
	if len(a) != len(j) {
		t.Errorf("the run's report has %d fields, the judge's %d", len(a), len(j))
	}
}

// reportFields are a report's JSON fields but for those the offline judge measures again from
// the history's request times (as in TestJudgeEqualsTheRun, sandbox_judge_test.go).
func reportFields(t *testing.T, r any) map[string]any {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"started_at", "finished_at", "elapsed_s", "engine", "latency", "latency_histogram", "in_flight_timeline", "throughput_rps", "peak_in_flight"} {
		delete(m, k)
	}
	return m
}

// TestReadingAFileProfileKeepsItsRecords: the openstudio and jobs verdicts are judged on the
// records, so reading their history keeps them.
func TestReadingAFileProfileKeepsItsRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.jsonl")
	w, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	hw := history.NewWriter(w)
	_ = hw.Write(&history.Record{Kind: history.KindHeader, Header: &history.Header{Schema: history.SchemaVersion, Profile: ProfileJobs}})
	_ = hw.Write(&history.Record{Kind: history.KindRequest, Seq: 1, Outcome: history.Acknowledged})
	if err := hw.Flush(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	s, err := ReadSaved(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.History.Records) != 1 || s.fold != nil {
		t.Fatalf("%d records kept, fold %v: a jobs history keeps its records", len(s.History.Records), s.fold != nil)
	}
}
