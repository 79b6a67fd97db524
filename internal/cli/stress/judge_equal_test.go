package stress

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
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
		{"racy", []string{"--replicas", "3", "--locking", "none"}, []string{"--requests", "2000", "--concurrency", "500", "--analyses", "20", "--settle-timeout", "20s"}, 1},
		{"serial with --min-contended 0", []string{"--replicas", "1", "--locking", "redlock"}, []string{"--requests", "60", "--concurrency", "1", "--analyses", "2", "--min-contended", "0"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sb := sandboxenv.Start(t, c.sandbox...)
			hist := filepath.Join(t.TempDir(), "history.jsonl")
			live := stress(t, sb, append(c.args, "--history", hist)...)
			if live.code != c.code {
				t.Fatalf("the run exited %d, want %d: %v %v", live.code, c.code, live.rep.Verdict, live.rep.Reasons)
			}
			out, err := exec.Command(testenv.OsctlBinary(t), "stress", "judge", "--history", hist, "--state-dir", sb.StateDir, "-o", "json").Output()
			code := testenv.ExitCode(t, err)
			if code != live.code {
				t.Fatalf("judge exited %d, the run %d", code, live.code)
			}
			liveJSON, _ := json.Marshal(live.rep)
			var a, b map[string]any
			if err := json.Unmarshal(liveJSON, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out, &b); err != nil {
				t.Fatalf("judge printed no JSON: %v", err)
			}
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
				ja, _ := json.Marshal(a[k])
				jb, _ := json.Marshal(b[k])
				t.Errorf("%s differs:\n run:   %.600s\n judge: %.600s", k, ja, jb)
			}
		})
	}
}
