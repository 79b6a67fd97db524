// Package stressrun runs `osctl stress` (the binary from testenv.OsctlBinary) against a sandbox
// started by sandboxenv, and checks its verdict by the exit code and the JSON report, for the
// test packages that run the binary (internal/cli/stress and internal/acceptance) and for
// pkg/stress's runs in-process (a Result of the report alone).
package stressrun

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/nemesis"

	// The profiles' report parts: a report decoded here has its profile's (openstudio.PartOf).
	_ "github.com/osctl/osctl/pkg/stress/profiles"
	"github.com/osctl/osctl/pkg/stress/report"
)

// Result is one `osctl stress` run with its JSON report.
type Result struct {
	testenv.OsctlRun
	Rep report.Report
}

// Run runs `osctl stress --target <the sandbox's replicas> -o json args...`, bounded by 3
// minutes, with the sandbox's --state-dir unless args choose the jobs or http profile.
func Run(t *testing.T, sb *sandboxenv.Sandbox, args ...string) Result {
	t.Helper()
	full := append([]string{"stress", "--target", strings.Join(sb.Replicas, ","), "-o", "json"}, args...)
	if sb.StateDir != "" && !slices.Contains(args, "jobs") && !slices.Contains(args, "http") {
		full = append(full, "--state-dir", sb.StateDir)
	}
	res := Result{OsctlRun: testenv.RunOsctl(t, 3*time.Minute, full...)}
	res.Decode(t, &res.Rep)
	return res
}

// RequireRaces fails the test unless the run found races (exit 1) with a finding of each of
// kinds, and every finding carries its evidence.
func RequireRaces(t *testing.T, r Result, kinds ...string) {
	t.Helper()
	if r.Code != 1 || r.Rep.Verdict != "races" || len(r.Rep.Findings) == 0 {
		t.Fatalf("want races (exit 1), got exit %d verdict %s findings %v reasons %v\n%s", r.Code, r.Rep.Verdict, r.Rep.FindingCounts, r.Rep.Reasons, r.Stderr)
	}
	for _, k := range kinds {
		if r.Rep.FindingCounts[k] == 0 {
			t.Errorf("want %s findings, got %v", k, r.Rep.FindingCounts)
		}
	}
	for _, f := range r.Rep.Findings {
		if f.Kind == "" || f.Object == "" || f.Expected == "" || f.Got == "" {
			t.Fatalf("finding without evidence: %+v", f)
		}
	}
}

// RequireClean fails the test unless the run was clean, conclusive and whole (exit 0).
func RequireClean(t *testing.T, r Result) {
	t.Helper()
	if r.Code != 0 || r.Rep.Verdict != "clean" || !r.Rep.Conclusive || r.Rep.Partial {
		var first string
		if len(r.Rep.Findings) > 0 {
			b, _ := json.Marshal(r.Rep.Findings[0])
			first = string(b)
		}
		t.Fatalf("want clean and conclusive (exit 0), got exit %d verdict %s findings %v reasons %v first %s\n%s", r.Code, r.Rep.Verdict, r.Rep.FindingCounts, r.Rep.Reasons, first, r.Stderr)
	}
}

// KillLostAJob says whether r is inconclusive for one cause alone, with no finding, after a
// replica was killed: jobs left "queued" that no failure explains. A replica killed between a
// start's write of its job and the Resque.enqueue after it (Job.new_job, then Resque.enqueue), or
// between its worker's pop of the job and its record of working on it (Resque's reserve, then
// working_on), leaves such a job, as the real app would: the kill's timing, not a race. Requests
// the kill cut off may be named beside it. Without a kill of a web replica done in the run, it is
// false: a job lost otherwise is not the kill's.
func KillLostAJob(r Result) bool {
	if r.Code != 2 || r.Rep.Verdict != "inconclusive" || len(r.Rep.Findings) > 0 ||
		!slices.ContainsFunc(r.Rep.Faults, func(f nemesis.Fault) bool {
			return f.Kind.Kills() && !f.Kind.HitsRedis() && f.Outcome == nemesis.Done
		}) {
		return false
	}
	stuck := false
	for _, why := range r.Rep.Reasons {
		switch {
		case strings.Contains(why, `jobs stuck in "queued" that no failure osctl could read explains`):
			stuck = true
		case strings.Contains(why, "requests got no answer"):
		default:
			return false
		}
	}
	return stuck
}

// killTries is how many loads with a kill AfterAKill runs at most.
const killTries = 3

// AfterAKill runs load (a fresh sandbox, and a load during which a replica is killed) again while
// the kill lost a job (KillLostAJob), at most killTries times, and returns the last run: a test
// that wants a clean, conclusive verdict after a kill still gets no race on any try.
func AfterAKill(t *testing.T, load func() Result) Result {
	t.Helper()
	for try := 1; ; try++ {
		r := load()
		if !KillLostAJob(r) || try == killTries {
			return r
		}
		t.Logf("load %d: the kill lost a job (%s): a fresh sandbox and another load", try, strings.Join(r.Rep.Reasons, "; "))
	}
}
