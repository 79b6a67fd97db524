package cleanup

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv/cleanupenv"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// stepDeleter is a profile's part of a plan in these tests: it records when it ran, whether the
// run's directories were still there then, and fails as told.
type stepDeleter struct {
	pending int
	err     error
	dirs    []string
	ran     bool
	dirsIn  bool // every directory was still there when Delete ran
}

func (d *stepDeleter) Pending(*Result) int { return d.pending }

func (d *stepDeleter) Question(p *Plan) string {
	return "Delete the run's things of " + p.Run + ", and remove directories under " + p.Root() + "?"
}

func (d *stepDeleter) Delete(_ context.Context, r *Result) error {
	d.ran, d.dirsIn = true, !slices.ContainsFunc(d.dirs, func(p string) bool { return !cleanupenv.Exists(p) })
	r.Deleted = d.pending
	return d.err
}

// TestApplyDeletesThenRemoves: a plan's Deleter asks the question and runs before the run's
// directories are removed; its error comes back once the directories are gone, with what it did.
func TestApplyDeletesThenRemoves(t *testing.T) {
	const run = "7c0f5a2e"
	root := t.TempDir()
	own := profile.AnalysisID(run, 1)
	cleanupenv.Mkdirs(t, root, "server/analyses/"+own+"/seed.zip")
	p, err := Files(root, run)
	if err != nil {
		t.Fatal(err)
	}
	d := &stepDeleter{pending: 2, err: errors.New("1 of 2 things were not deleted"), dirs: p.Removed}
	p.Deleter = d
	if q := p.Question(); q != "Delete the run's things of "+run+", and remove directories under "+root+"?" || p.Empty() {
		t.Fatalf("question %q, empty %v", q, p.Empty())
	}
	res, err := p.Apply(context.Background())
	if err == nil || err.Error() != "1 of 2 things were not deleted" || !d.ran || !d.dirsIn || res.Deleted != 2 || res.DryRun {
		t.Fatalf("apply: %v, ran %v, dirs there when it ran %v, result %+v", err, d.ran, d.dirsIn, res)
	}
	if cleanupenv.Exists(filepath.Join(root, "server/analyses", own)) || len(res.Removed) != 1 {
		t.Fatalf("the run's directory was not removed: %v", res.Removed)
	}
	if p.Deleted != 0 || !p.DryRun {
		t.Fatalf("apply changed the plan's own result: %+v", p.Result)
	}
	nothing := &Plan{Result: Result{Run: run, DryRun: true}, Deleter: &stepDeleter{}}
	if !nothing.Empty() {
		t.Fatal("a plan with no directory and nothing pending is not empty")
	}
}

// TestForHistory: a history whose run id osctl would not give is refused before any plan, a
// profile without a registered plan is a usage error, and a registered plan is what plans.
func TestForHistory(t *testing.T) {
	ctx := context.Background()
	const name = "cleanup-test-profile"
	var got *history.History
	Register(name, func(_ context.Context, h *history.History, o Options) (*Plan, error) {
		got = h
		return &Plan{Result: Result{Run: h.Header.Run, Profile: h.Header.Profile, DryRun: true}, root: o.StateDir}, nil
	})
	h := &history.History{Header: history.Header{Run: "../../x", Profile: name}}
	if _, err := ForHistory(ctx, h, Options{}); err == nil || !strings.Contains(err.Error(), "not one osctl gives") || got != nil {
		t.Fatalf("a foreign run id: %v (planned: %v)", err, got != nil)
	}
	h.Header.Run = "0badc0de"
	p, err := ForHistory(ctx, h, Options{StateDir: "/v"})
	if err != nil || got != h || p.Root() != "/v" || !p.Empty() {
		t.Fatalf("registered plan: %+v, %v", p, err)
	}
	h.Header.Profile = "unregistered"
	var ue *UsageError
	if _, err := ForHistory(ctx, h, Options{}); !errors.As(err, &ue) || !strings.Contains(ue.Error(), "a unregistered run, which leaves nothing to clean up") {
		t.Fatalf("a profile without a plan: %v", err)
	}
}

// TestLines: every analysis, job and skipped object gets its line, and the last line totals
// them as the profile's kind of objects asks.
func TestLines(t *testing.T) {
	r := &Result{Run: "0badc0de", Target: "http://srv", DryRun: true, Removed: []string{"/v/a"}, Files: 2,
		Analyses: []profile.AnalysisDeletion{{ID: "a1", Result: profile.DeleteDeleted}, {ID: "a2", Result: profile.DeleteAlreadyGone},
			{ID: "a3", Result: profile.DeleteFailed, Error: "500"}, {ID: "a4", Result: profile.DeleteNotTheRuns, Error: "not its name"}},
		Skipped: []Skipped{{Kind: "analysis", ID: "a5", Reason: "no nonce"}, {Kind: "job", Target: "http://r1", Reason: "no id"}}}
	want := []string{
		"would delete analysis a1 through http://srv",
		`analysis a2 is already gone (GET answered {"analysis":null})`,
		"analysis a3 not deleted: 500",
		"analysis a4 left alone: not its name",
		"would remove /v/a",
		"left alone analysis a5: no nonce",
		"left alone a job with no id on http://r1: no id",
		"run 0badc0de: left alone 3 object(s) the history names but the run cannot be shown to have made; would delete 1 analyses through the API; would remove 1 directories (2 files)",
	}
	if got := r.Lines(); !slices.Equal(got, want) || r.LeftAlone() != 3 {
		t.Fatalf("lines:\n%s\nwant:\n%s (left alone %d)", strings.Join(got, "\n"), strings.Join(want, "\n"), r.LeftAlone())
	}
	j := &Result{Run: "0badc0de", Profile: history.Jobs.Name, Unknown: 2, Deleted: 1, NotFound: 1,
		Jobs: []profile.JobDeletion{{JobRef: profile.JobRef{ID: "j1", Target: "http://r0", Seq: 3}, Outcome: profile.JobDeleted, Again: true},
			{JobRef: profile.JobRef{ID: "j2", Target: "http://r0"}, Outcome: profile.JobNotFound, Error: "404"}}}
	want = []string{
		"deleted job j1 on http://r0 (submit #3): it came back after it was deleted (a submit still in flight made it again) and was deleted again",
		"job j2 on http://r0 not found: 404",
		"2 submits got no answer and carried no idempotency_key: any job they made has an id nobody knows (look for it in GET /v1/jobs on its replica)",
		"run 0badc0de: deleted 1 jobs, 0 already gone, 1 not found, 0 not deleted",
	}
	if got := j.Lines(); !slices.Equal(got, want) {
		t.Fatalf("jobs lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	j.DryRun, j.Unknown = true, 1
	if got := j.Lines(); got[2] != "1 submit got no answer and carried no idempotency_key: any job it made has an id nobody knows (look for it in GET /v1/jobs on its replica)" || got[3] != "run 0badc0de: would delete 2 jobs" {
		t.Fatalf("dry jobs lines: %v", got)
	}
}

// TestClientFollowsNoRedirect: the client cleanup sends with stops at a redirect, naming where
// it led, and never sends the request there.
func TestClientFollowsNoRedirect(t *testing.T) {
	elsewhere := 0
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere++ }))
	defer other.Close()
	u := strings.Replace(other.URL, "http://", "http://user:s3cret@", 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, u+"/x", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	resp, err := Client(0).Get(srv.URL + "/v1/jobs/j1")
	if err == nil {
		resp.Body.Close()
		t.Fatal("the redirect was followed")
	}
	if !strings.Contains(err.Error(), "redirected to http://user:xxxxx@") || !strings.Contains(err.Error(), "cleanup follows no redirect") || elsewhere != 0 {
		t.Fatalf("error %v, requests elsewhere %d", err, elsewhere)
	}
}
