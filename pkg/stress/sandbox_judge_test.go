package stress_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/openstudio"
	"github.com/osctl/osctl/pkg/stress/report"
)

// timeFields describe the run itself (when, how fast, how it was sent), not what it found: the
// offline judge measures them again from the history's request times.
var timeFields = []string{"started_at", "finished_at", "elapsed_s", "engine", "latency", "latency_histogram", "in_flight_timeline", "throughput_rps", "peak_in_flight"}

// TestJudgeEqualsTheRun: the offline judge (`osctl stress judge`: stress.ReadSaved and its Judge)
// of a run's history and state gives the run's own report, field by field but for the times: for
// a racy run, and for a serial run whose verdict depends on the threshold it set (MinContended 0,
// which judge must read from the history).
func TestJudgeEqualsTheRun(t *testing.T) {
	testenv.SkipIfShort(t, "loads on sandbox replicas")
	cases := []struct {
		name     string
		replicas int
		sandbox  func(*sandbox.Config)
		run      func(*stress.Config)
		code     int
	}{
		// The sandbox's workers never wake (BackgroundInterval 1h), so that nothing changes the
		// volume between the run's read and judge's: a job still running when the run read the
		// state would leave judge a different extraction to judge. The uploads race on the zips, in
		// 512-byte pieces so that they tear some on a loaded machine too.
		{"racy", 3, func(c *sandbox.Config) {
			c.Locking, c.BackgroundInterval, c.UploadChunk = sandbox.LockingNone, time.Hour, 512
		},
			func(c *stress.Config) {
				c.Requests, c.Concurrency = 2000, 500
				openStudio(c, func(o *openstudio.Options) { o.Analyses, o.BackgroundWait, o.SettleTimeout = 20, 0, 5*time.Second })
			}, 1},
		{"serial with MinContended 0", 1, func(c *sandbox.Config) { c.Locking = sandbox.LockingRedlock },
			func(c *stress.Config) {
				c.Requests, c.Concurrency, c.MinContended = 60, 1, 0
				openStudio(c, func(o *openstudio.Options) { o.Analyses = 2 })
			}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sb := serve(t, c.replicas, c.sandbox)
			live := runOn(t, sb, c.run)
			if live.Code() != c.code {
				t.Fatalf("the run exited %d, want %d: %v %v", live.Code(), c.code, live.rep.Verdict, live.rep.Reasons)
			}
			t.Logf("run: %.1fs, notices %q", live.rep.Elapsed, live.rep.Notices)
			off := judgeSaved(t, live.hist, sb.StateDir)
			if off.ExitCode() != live.Code() {
				t.Fatalf("judge exited %d, the run %d", off.ExitCode(), live.Code())
			}
			reportsEqual(t, live.rep, off)
		})
	}
}

// reportsEqual fails for every top-level field of the JSON reports but timeFields that differs
// between the run's and judge's, naming its first differing element.
func reportsEqual(t *testing.T, live, off *report.Report) {
	t.Helper()
	var a, b map[string]any
	for _, x := range []struct {
		r *report.Report
		m *map[string]any
	}{{live, &a}, {off, &b}} {
		j, err := json.Marshal(x.r)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(j, x.m); err != nil {
			t.Fatal(err)
		}
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
		va, vb, where := firstDifference(a[k], b[k])
		ja, _ := json.Marshal(va)
		jb, _ := json.Marshal(vb)
		t.Errorf("%s differs%s:\n run:   %.2000s\n judge: %.2000s", k, where, ja, jb)
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
