package jobs

import (
	"context"
	"github.com/osctl/osctl/internal/testenv/cleanupenv"
	"github.com/osctl/osctl/pkg/stress/cleanup"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

const run = "0badc0de"

// submit is an acknowledged submit of the default body, as osctl stress records it: its nonce,
// the job id its key names, and that id in the answer.
func submit(seq int64, target string) history.Record {
	nonce := profile.Nonce(run, seq)
	id, _ := profile.JobIDFromKey(profile.DefaultSubmissionSource, nonce)
	return history.Record{Seq: seq, Op: history.OpSubmitJob, Target: target, Nonce: nonce, JobFollow: history.JobFollow{KeyJob: id, Job: id}, Returned: id, Outcome: history.Acknowledged, Status: 202}
}

func token() http.Header { return http.Header{"X-Elb-Api-Token": {"s3cr3t-token"}} }

// TestJobsCleanupOnlyTheRunsJobsOnTheRunsTargets: a crafted history names a job on a host that
// is not among its header's targets, a job id on a target that the run's key does not name, and
// a record without the run's nonce. None of them is sent anything: the second loopback server
// sees no request, and the foreign job on the run's own target is still there. The run's own jobs
// (the default body's, a custom body's whose key holds the nonce, an id that holds the nonce, one
// named only by the key of a submit that got no answer) are deleted.
func TestJobsCleanupOnlyTheRunsJobsOnTheRunsTargets(t *testing.T) {
	ours, foreign := cleanupenv.NewServer(t), cleanupenv.NewServer(t)
	own := submit(1, ours.URL)
	elsewhere := submit(2, foreign.URL)
	stolen := submit(3, ours.URL)
	stolen.Returned = "5ca1ab1e0001" // someone else's production job, on the run's own target
	noNonce := submit(4, ours.URL)
	noNonce.Nonce = "osctl-0badc0de-00000099"
	custom := submit(5, ours.URL)
	custom.Key, custom.KeySource = "blast-"+custom.Nonce, "portal"
	custom.Returned, _ = profile.JobIDFromKey("portal", custom.Key)
	keyless := submit(6, ours.URL)
	// A key without the nonce cannot be told from another client's.
	keyless.Key, keyless.KeySource, keyless.Returned = "ticket-6", "portal", "a1b2c3d4e5f6"
	named := submit(7, ours.URL)
	named.Returned = "job-" + named.Nonce
	unanswered := submit(8, ours.URL)
	unanswered.Outcome, unanswered.Returned, unanswered.Error = history.Ambiguous, "", "timeout"
	for _, r := range []history.Record{own, stolen, custom, keyless, named, unanswered} {
		ours.Jobs[r.Returned] = true
	}
	ours.Jobs[unanswered.KeyJob] = true
	foreign.Jobs[elsewhere.Returned] = true

	h := cleanupenv.ReadHistory(t, cleanupenv.WriteHistory(t, history.Header{Run: run, Profile: "jobs", Targets: []string{ours.URL}},
		own, elsewhere, stolen, noNonce, custom, keyless, named, unanswered))
	plan, err := cleanup.ForHistory(context.Background(), h, cleanup.Options{Header: token(), Client: cleanup.Client(0)})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Jobs) != 4 || len(plan.Skipped) != 4 || plan.LeftAlone() != 4 {
		t.Fatalf("planned %v, skipped %v", plan.Jobs, plan.Skipped)
	}
	q := plan.Question()
	if !strings.Contains(q, "Delete 4 jobs of stress run 0badc0de on 1 replica(s) (1 of them named only by the idempotency key") {
		t.Errorf("question: %s", q)
	}
	dry := strings.Join(plan.Lines(), "\n")
	for _, want := range []string{
		"would delete job " + own.Returned + " on " + ours.URL,
		"left alone job " + elsewhere.Returned + " on " + foreign.URL + ": its replica " + foreign.URL + " is not among the run's targets",
		"left alone job 5ca1ab1e0001 on " + ours.URL + ": job id 5ca1ab1e0001 is not the one the idempotency key of submit #3 names",
		"its submit #4 does not carry the run's nonce osctl-0badc0de-00000004",
		"the idempotency key of submit #6 does not hold the run's nonce",
		"run 0badc0de: left alone 4 object(s) the history names but the run cannot be shown to have made; would delete 4 jobs",
	} {
		if !strings.Contains(dry, want) {
			t.Errorf("dry run lacks %q:\n%s", want, dry)
		}
	}
	if ours.Count() != 0 || foreign.Count() != 0 {
		t.Fatalf("planning sent requests: %d, %d", ours.Count(), foreign.Count())
	}
	res, err := plan.Apply(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Deleted != 4 || res.NotDeleted != 0 {
		t.Fatalf("deleted %d, not deleted %d: %+v", res.Deleted, res.NotDeleted, res.Jobs)
	}
	for _, id := range []string{own.Returned, custom.Returned, named.Returned, unanswered.KeyJob} {
		if ours.Has(id) {
			t.Errorf("job %s of the run is still there", id)
		}
	}
	for _, id := range []string{stolen.Returned, keyless.Returned} {
		if !ours.Has(id) {
			t.Errorf("job %s, not the run's, was deleted", id)
		}
	}
	if foreign.Count() != 0 || !foreign.Has(elsewhere.Returned) {
		t.Fatalf("the host outside the header's targets was sent %d requests", foreign.Count())
	}
	for _, r := range ours.Requests {
		if strings.Contains(r, stolen.Returned) || strings.Contains(r, keyless.Returned) || strings.Contains(r, noNonce.Returned) {
			t.Errorf("sent %s", r)
		}
	}
}

// TestJobsCleanupRedirectCarriesNoToken: a replica that answers the DELETE with a 307 to another
// host is not followed: the job is reported not deleted with the Location named, and the other
// host never sees the token.
func TestJobsCleanupRedirectCarriesNoToken(t *testing.T) {
	ours, thief := cleanupenv.NewServer(t), cleanupenv.NewServer(t)
	ours.Redirect = thief.URL
	thief.Jobs[submit(1, ours.URL).Returned] = true
	h := cleanupenv.ReadHistory(t, cleanupenv.WriteHistory(t, history.Header{Run: run, Profile: "jobs", Targets: []string{ours.URL}}, submit(1, ours.URL)))
	plan, err := cleanup.ForHistory(context.Background(), h, cleanup.Options{Header: token(), Client: cleanup.Client(0)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := plan.Apply(context.Background())
	if err == nil || res.NotDeleted != 1 || !strings.Contains(err.Error(), "1 of 1 jobs were not deleted") {
		t.Fatalf("%v %+v", err, res)
	}
	line := strings.Join(res.Lines(), "\n")
	if !strings.Contains(line, "redirected to "+thief.URL+"/v1/jobs/") || !strings.Contains(line, "cleanup follows no redirect") {
		t.Errorf("lines: %s", line)
	}
	if thief.Count() != 0 || len(thief.Tokens) != 0 {
		t.Fatalf("the redirect's host got %v with tokens %v", thief.Requests, thief.Tokens)
	}
}

// TestJobsCleanupOfATruncatedHistory: a history whose last line was cut by a crash is read (its
// partial line ignored and counted), and the jobs of its whole records are deleted.
func TestJobsCleanupOfATruncatedHistory(t *testing.T) {
	ours := cleanupenv.NewServer(t)
	first, second := submit(1, ours.URL), submit(2, ours.URL)
	ours.Jobs[first.Returned], ours.Jobs[second.Returned] = true, true
	p := cleanupenv.WriteHistory(t, history.Header{Run: run, Profile: "jobs", Targets: []string{ours.URL}}, first, second)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b[:len(b)-25], 0o644); err != nil { // the second submit's line, cut
		t.Fatal(err)
	}
	h, err := history.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if h.Cut != 1 || h.Footer != nil || !strings.HasPrefix(h.CutNotice(), "history ends mid-record: 1 partial line ignored") {
		t.Fatalf("cut %d, notice %q", h.Cut, h.CutNotice())
	}
	plan, err := cleanup.ForHistory(context.Background(), h, cleanup.Options{Header: token(), Client: cleanup.Client(0)})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := plan.Apply(context.Background()); err != nil || res.Deleted != 1 || ours.Has(first.Returned) {
		t.Fatalf("%v %+v", err, res)
	}
	if !ours.Has(second.Returned) {
		t.Fatal("the job of the cut record was deleted")
	}
}

// TestJobsCleanupUsage: a jobs run takes neither a state directory nor a target, a history with
// a run id osctl does not give is refused whole, and an http run leaves nothing to clean up.
func TestJobsCleanupUsage(t *testing.T) {
	ctx := context.Background()
	h := &history.History{Header: history.Header{Run: run, Profile: "jobs"}}
	var ue *cleanup.UsageError
	if _, err := cleanup.ForHistory(ctx, h, cleanup.Options{StateDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "leave out {StateDir}") {
		t.Errorf("jobs with a state dir: %v", err)
	}
	h.Header.Run = "../../x"
	if _, err := cleanup.ForHistory(ctx, h, cleanup.Options{}); err == nil || !strings.Contains(err.Error(), `run id "../../x" is not one osctl gives`) {
		t.Errorf("bad run id: %v", err)
	}
	h.Header.Run, h.Header.Profile = run, "http"
	if _, err := cleanup.ForHistory(ctx, h, cleanup.Options{}); err == nil || !asUsage(err, &ue) {
		t.Errorf("http: %v", err)
	}
	h.Header.Profile = "jobs"
	plan, err := cleanup.ForHistory(ctx, h, cleanup.Options{})
	if err != nil || !plan.Empty() || len(plan.Lines()) != 1 || plan.Lines()[0] != "run 0badc0de: would delete 0 jobs" {
		t.Fatalf("empty jobs run: %v %v", err, plan.Lines())
	}
}

func asUsage(err error, ue **cleanup.UsageError) bool {
	u, ok := err.(*cleanup.UsageError)
	*ue = u
	return ok
}
