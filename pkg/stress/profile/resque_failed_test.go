package profile

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

// resqueEntry is one failure as resque 2.0.0's Resque::Failure::Redis#save writes it: failed_at
// (Time#strftime "%Y/%m/%d %H:%M:%S %Z"), payload {class, args}, exception, error, backtrace,
// worker, queue. An InitializeAnalysis's args are Analysis#start's: analysis_type, analysis_id,
// job_id, options.
func resqueEntry(t testing.TB, failedAt, class, analysis string) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"failed_at": failedAt,
		"payload":   map[string]any{"class": class, "args": []any{"batch_run", analysis, "5f0c1a2b3c4d5e6f7a8b9c0d", map[string]any{"skip_init": false}}},
		"exception": "RuntimeError",
		"error":     "Extraction of the seed.zip file failed 3 times with error No such file or directory @ rb_sysopen - /mnt/openstudio/server/assets/analyses/" + analysis + "/seed.zip",
		"backtrace": []string{"/opt/openstudio/server/app/models/analysis.rb:472:in `run_initialization'", "/opt/openstudio/server/app/jobs/resque_jobs/initialize_analysis.rb:17:in `perform'"},
		"worker":    "web-1:4242:analysis_wrappers",
		"queue":     "analysis_wrappers",
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const resqueStamp = "2006/01/02 15:04:05 MST"

func TestResqueFailureIsAFailedExtraction(t *testing.T) {
	var f resqueFailure
	if err := json.Unmarshal([]byte(resqueEntry(t, "2026/12/07 05:30:01 UTC", classInitializeAnalysis, "0badc0de-000a-4000-8000-000000000001")), &f); err != nil {
		t.Fatal(err)
	}
	fj, ok := f.extraction()
	if !ok || fj.Analysis != "0badc0de-000a-4000-8000-000000000001" || fj.Class != classInitializeAnalysis || fj.Worker != "web-1:4242:analysis_wrappers" ||
		fj.Exception != "RuntimeError" || fj.FailedAt != "2026/12/07 05:30:01 UTC" || !fj.RunAt.IsZero() {
		t.Fatalf("extraction = %+v, %v", fj, ok)
	}
	for _, class := range []string{"ResqueJobs::RunAnalysis", "DjJobs::RunSimulateDataPoint"} {
		var o resqueFailure
		_ = json.Unmarshal([]byte(resqueEntry(t, "2026/12/07 05:30:01 UTC", class, "a")), &o)
		if _, ok := o.extraction(); ok {
			t.Errorf("%s taken for an extraction", class)
		}
	}
}

func TestFailedByReadsResqueStamps(t *testing.T) {
	at := time.Date(2026, 12, 7, 5, 30, 1, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2026/12/07 05:30:01 UTC", at, true},
		{"2026/12/07 05:30:01 GMT", at, true},
		{"2026/12/07 11:00:01 +0530", at, true},
		{"2026/12/07 09:30:01 +04", at, true},
		{"2026/12/07 00:30:01 -05:00", at, true},
		{"2026/12/07 00:30:01 EST", time.Date(2026, 12, 7, 12, 30, 1, 0, time.UTC), true}, // a name Go cannot resolve: the latest it can be (UTC-12)
		{"2026-12-07T05:30:01Z", time.Time{}, false},
		{"2026/12/07 05:30:01 +99", time.Time{}, false},
		{"", time.Time{}, false},
	} {
		got, ok := failedBy(c.in)
		if ok != c.ok || !got.Equal(c.want) {
			t.Errorf("failedBy(%q) = %s, %v; want %s, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestReadResqueFailedOnRedis: on a real redis-server holding a failed list as Resque writes it,
// the run's failed extractions are read (one in another zone, and one stamped an hour before the
// run: its analysis is the run's, so a clock behind must not hide it), other jobs' and analyses'
// failures and a malformed entry are not, but counted; a long list is read newest first and no further than the run; nothing is removed.
func TestReadResqueFailedOnRedis(t *testing.T) {
	ctx := context.Background()
	rdb := testenv.StartRedis(t).Client()
	key := ResqueFailedKey("resque")
	began := time.Date(2026, 12, 7, 5, 30, 0, 400e6, time.UTC) // failed_at is to the second
	mine := func(n int) string { return fmt.Sprintf("0badc0de-000a-4000-8000-%012x", n) }
	var entries []any
	for i := range 1100 { // old failures of someone else's analyses
		entries = append(entries, resqueEntry(t, began.Add(-time.Duration(2000-i)*time.Second).Format(resqueStamp), classInitializeAnalysis, fmt.Sprintf("other-%d", i)))
	}
	entries = append(entries,
		resqueEntry(t, began.Add(-time.Hour).Format(resqueStamp), classInitializeAnalysis, mine(1)), // the run's id, stamped an hour before: judged all the same
		resqueEntry(t, "2026/12/07 05:30:00 UTC", classInitializeAnalysis, mine(1)),                 // the run's second
		"{not json",
		resqueEntry(t, began.Add(2*time.Second).Format(resqueStamp), "ResqueJobs::RunAnalysis", mine(2)),
		resqueEntry(t, began.Add(3*time.Second).Format(resqueStamp), classInitializeAnalysis, "someone-else"),
		resqueEntry(t, began.Add(4*time.Second).In(time.FixedZone("", 3600)).Format("2006/01/02 15:04:05 -0700"), classInitializeAnalysis, mine(2)),
		`{"payload":{"class":"ResqueJobs::InitializeAnalysis","args":["batch_run","`+mine(3)+`"]},"error":"no failed_at"}`,
	)
	if err := rdb.RPush(ctx, key, entries...).Err(); err != nil {
		t.Fatal(err)
	}
	before, err := rdb.LRange(ctx, key, 0, -1).Result()
	if err != nil {
		t.Fatal(err)
	}
	keep := func(a string) bool { return a == mine(1) || a == mine(2) || a == mine(3) }
	got, err := ReadResqueFailed(ctx, rdb, key, began, keep)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, j := range got.Jobs {
		ids = append(ids, j.Analysis)
	}
	if !slices.Equal(ids, []string{mine(1), mine(1), mine(2)}) {
		t.Errorf("jobs of %v, want %s's twice (the one stamped before the run too) and %s's, oldest first", ids, mine(1), mine(2))
	}
	// Newest first in pages of 500: the first holds the run's and 493 old ones, the second only
	// old ones, and the reading stops there.
	if got.Len != 1107 || got.Read != 1000 || got.Cut || got.Malformed != 2 || got.Others != 2 || got.Older != 1000-7 || got.OlderOfRun != 1 {
		t.Errorf("read %+v: want len 1107, read 1000, 2 malformed, 2 others, 993 older and 1 of the run's stamped before it", got)
	}
	after, err := rdb.LRange(ctx, key, 0, -1).Result()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(before, after) {
		t.Errorf("the failed list changed: %d entries before, %d after", len(before), len(after))
	}
	if _, err := ReadResqueFailed(ctx, rdb, ResqueFailedKey("elsewhere"), began, keep); err != nil {
		t.Errorf("a namespace with no failed list: %v, want nothing read and no error", err)
	}
	// A list of failures all since the run began is read no further than its newest
	// ResqueFailedMax.
	busy := ResqueFailedKey("busy")
	entries = entries[:0]
	for i := range ResqueFailedMax + 500 {
		entries = append(entries, resqueEntry(t, began.Add(time.Duration(i)*time.Millisecond).Format(resqueStamp), classInitializeAnalysis, mine(i)))
	}
	if err := rdb.RPush(ctx, busy, entries...).Err(); err != nil {
		t.Fatal(err)
	}
	got, err = ReadResqueFailed(ctx, rdb, busy, began, func(string) bool { return true })
	if err != nil || got.Read != ResqueFailedMax || !got.Cut || len(got.Jobs) != ResqueFailedMax || got.Jobs[0].Analysis != mine(500) {
		t.Errorf("a list of %d failures since the run: read %d, %d jobs, the first of %v (%v); want the newest %d", ResqueFailedMax+500, got.Read, len(got.Jobs), got.Jobs[:min(1, len(got.Jobs))], err, ResqueFailedMax)
	}
}
