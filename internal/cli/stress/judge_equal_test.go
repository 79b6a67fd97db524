package stress

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/osctl/osctl/internal/testenv/sandboxenv"
)

// timeFields describe the run itself (when, how fast, how it was sent), not what it found: the
// offline judge measures them again from the history's request times.
var timeFields = []string{"started_at", "finished_at", "elapsed_s", "engine", "latency", "latency_histogram", "in_flight_timeline", "throughput_rps", "peak_in_flight"}

// TestJudgeEqualsTheRun: `osctl stress judge` on a run's history and state gives the run's own
// report, field by field but for the times: for a racy run, and for a serial run whose verdict
// depends on the threshold it set (--min-contended 0, which judge must read from the history).
func TestJudgeEqualsTheRun(t *testing.T) {
	cases := []struct {
		name    string
		sandbox []string
		args    []string
		code    int
	}{
		// The sandbox's workers never wake (--background-interval 1h), so that nothing changes the
		// volume between the run's read and judge's: a job still running when the run read the
		// state would leave judge a different extraction to judge. The uploads race on the zips, in
		// 512-byte pieces so that they tear some on a loaded machine too (as in statepod_test.go).
		{"racy", []string{"--replicas", "3", "--locking", "none", "--background-interval", "1h", "--upload-chunk", "512"},
			[]string{"--requests", "2000", "--concurrency", "500", "--analyses", "20", "--background-wait", "0", "--settle-timeout", "5s"}, 1},
		{"serial with --min-contended 0", []string{"--replicas", "1", "--locking", "redlock"}, []string{"--requests", "60", "--concurrency", "1", "--analyses", "2", "--min-contended", "0"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sb := sandboxenv.Start(t, c.sandbox...)
			hist := filepath.Join(t.TempDir(), "history.jsonl")
			live := stress(t, sb, append(c.args, "--history", hist)...)
			if live.Code != c.code {
				t.Fatalf("the run exited %d, want %d: %v %v", live.Code, c.code, live.rep.Verdict, live.rep.Reasons)
			}
			j := runOsctl(t, "stress", "judge", "--history", hist, "--state-dir", sb.StateDir, "-o", "json")
			if j.Code != live.Code {
				t.Fatalf("judge exited %d, the run %d", j.Code, live.Code)
			}
			liveJSON, _ := json.Marshal(live.rep)
			var a, b map[string]any
			if err := json.Unmarshal(liveJSON, &a); err != nil {
				t.Fatal(err)
			}
			j.Decode(t, &b)
			for _, k := range timeFields {
				delete(a, k)
				delete(b, k)
			}
			var differ []string
			for k := range a {
				if !reflect.DeepEqual(a[k], b[k]) {
					differ = append(differ, k)
				}
			}
			for k := range b {
				if _, ok := a[k]; !ok {
					differ = append(differ, k)
				}
			}
			sort.Strings(differ)
			for _, k := range differ {
				va, vb, where := firstDifference(a[k], b[k])
				ja, _ := json.Marshal(va)
				jb, _ := json.Marshal(vb)
				t.Errorf("%s differs%s:\n run:   %.2000s\n judge: %.2000s", k, where, ja, jb)
			}
		})
	}
}

// firstDifference narrows two differing lists to their first differing element.
func firstDifference(a, b any) (any, any, string) {
	la, okA := a.([]any)
	lb, okB := b.([]any)
	if !okA || !okB {
		return a, b, ""
	}
	for i := 0; i < len(la) && i < len(lb); i++ {
		if !reflect.DeepEqual(la[i], lb[i]) {
			return la[i], lb[i], fmt.Sprintf(" at [%d] (%d and %d elements)", i, len(la), len(lb))
		}
	}
	return len(la), len(lb), " in length"
}
