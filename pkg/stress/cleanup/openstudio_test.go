package cleanup

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// mkdirs makes each directory (with one file in it) under root.
func mkdirs(t *testing.T, root string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		p := filepath.Join(root, filepath.FromSlash(d))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestRunMatchesWholeIDs: --run 7c0f5a2e removes the run's own directories and leaves alone a
// uuid-named analysis whose first group is the run id, a result directory that holds another
// file, and anything else.
func TestRunMatchesWholeIDs(t *testing.T) {
	const r = "7c0f5a2e"
	root := t.TempDir()
	ownA := profile.AnalysisID(r, 1)
	foreignA := "7c0f5a2e-3c1d-4b8e-9a51-0d6f2b7e9c11"
	mkdirs(t, root,
		"server/analyses/"+ownA+"/seed.zip", "server/assets/analyses/"+ownA+"/original/"+profile.ZipName(r),
		"server/analyses/"+foreignA+"/seed.zip", "server/assets/analyses/"+foreignA+"/original/x.zip",
		"server/analyses/7c0f5a2e-000a-4000-8000-00000000000/short",
		"server/assets/data_points/dp1/files/original/"+profile.ResultName(r, 3),
		"server/assets/data_points/dp2/files/original/"+profile.ResultName(r, 4),
		"server/assets/data_points/dp2/files/original/report.json",
		"server/assets/data_points/dp3/files/original/osctl-7c0f5a2e-notes.json")
	plan, err := Files(root, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "server/analyses", ownA), filepath.Join(root, "server/assets/analyses", ownA), filepath.Join(root, "server/assets/data_points/dp1")}
	if strings.Join(plan.Removed, ",") != strings.Join(want, ",") || plan.Files != 3 {
		t.Fatalf("planned %v (%d files), want %v", plan.Removed, plan.Files, want)
	}
	if q := plan.Question(); !strings.Contains(q, "Remove 3 directories (3 files) of stress run 7c0f5a2e under "+root) {
		t.Errorf("question: %s", q)
	}
	res, err := plan.Apply(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Lines(); got[len(got)-1] != "run 7c0f5a2e: removed 3 directories (3 files)" {
		t.Errorf("lines: %v", got)
	}
	for _, d := range want {
		if exists(d) {
			t.Errorf("%s is still there", d)
		}
	}
	for _, d := range []string{"server/analyses/" + foreignA, "server/assets/analyses/" + foreignA, "server/analyses/7c0f5a2e-000a-4000-8000-00000000000",
		"server/assets/data_points/dp2", "server/assets/data_points/dp3"} {
		if !exists(filepath.Join(root, d)) {
			t.Errorf("%s, not the run's, was removed", d)
		}
	}
	for _, bad := range []string{"7c0f5a2", "7c0f5a2e-3c1d", "", "../x"} {
		if _, err := Files(root, bad); err == nil {
			t.Errorf("run %q accepted", bad)
		}
	}
	if _, err := Files(filepath.Join(root, "none"), r); err == nil {
		t.Error("a missing state dir accepted")
	}
}

// create is an acknowledged create of the run's i-th analysis, as osctl stress records it.
func create(seq int64, i int) history.Record {
	id := profile.AnalysisID(run, i)
	return history.Record{Seq: seq, Op: history.OpCreateAnalysis, Setup: true, Nonce: profile.Nonce(run, seq), Project: "p-1", Analysis: id, ID: id, Returned: id,
		Outcome: history.Acknowledged, Status: 201}
}

// analysisAsServed is the analysis as the server keeps what a create sent.
func analysisAsServed(r history.Record) map[string]any {
	return map[string]any{"_id": r.ID, "uuid": r.ID, "name": r.Nonce, "display_name": "osctl stress " + run, "project_id": r.Project}
}

// TestOpenStudioCleanupDeletesOnlyWhatTheServerNamesAsTheRuns: an analysis is deleted only when
// the server still names it as the run did; one whose name or project differs, one the history
// names with another run's nonce, and one whose id is not one of the run's are left alone and
// never sent a DELETE. One already gone gets no DELETE either. The run's files go.
func TestOpenStudioCleanupDeletesOnlyWhatTheServerNamesAsTheRuns(t *testing.T) {
	srv := newServer(t)
	own, renamed, moved, gone := create(2, 0), create(3, 1), create(4, 2), create(5, 3)
	stranger := create(6, 4)
	stranger.Nonce = profile.Nonce("0badc0df", 6)
	foreignID := create(7, 5)
	foreignID.ID, foreignID.Returned, foreignID.Analysis = "0badc0de-3c1d-4b8e-9a51-0d6f2b7e9c11", "0badc0de-3c1d-4b8e-9a51-0d6f2b7e9c11", "0badc0de-3c1d-4b8e-9a51-0d6f2b7e9c11"
	rejected := create(8, 6)
	rejected.Outcome = history.Rejected
	for _, r := range []history.Record{own, renamed, moved, stranger, foreignID, rejected} {
		srv.analyses[r.ID] = analysisAsServed(r)
	}
	srv.analyses[renamed.ID]["name"] = "someone's analysis"
	srv.analyses[moved.ID]["project_id"] = map[string]any{"$oid": "p-2"}
	root := t.TempDir()
	mkdirs(t, root, "server/analyses/"+own.ID+"/seed.zip", "server/analyses/"+foreignID.ID+"/seed.zip")

	h := readHistory(t, writeHistory(t, history.Header{Run: run, Profile: "openstudio", Targets: []string{srv.URL}},
		own, renamed, moved, gone, stranger, foreignID, rejected))
	plan, err := ForHistory(context.Background(), h, Options{StateDir: root, Client: Client(0)})
	if err != nil {
		t.Fatal(err)
	}
	dry := strings.Join(plan.Lines(), "\n")
	for _, want := range []string{
		"would delete analysis " + own.ID + " through " + srv.URL,
		"analysis " + renamed.ID + ` left alone: the server names it "someone's analysis", the run named it "osctl-0badc0de-00000003"`,
		"analysis " + moved.ID + " left alone: the server puts it in project p-2, the run in p-1",
		"analysis " + gone.ID + " is already gone",
		"left alone analysis " + stranger.ID + ": its create #6 does not carry the run's nonce osctl-0badc0de-00000006",
		"left alone analysis " + foreignID.ID + ": its create #7 asked for id " + foreignID.ID + ", which is not one of the run's analysis ids",
		"run 0badc0de: left alone 4 object(s) the history names but the run cannot be shown to have made; would delete 1 analyses through the API; would remove 1 directories (1 files)",
	} {
		if !strings.Contains(dry, want) {
			t.Errorf("dry run lacks %q:\n%s", want, dry)
		}
	}
	if q := plan.Question(); !strings.Contains(q, "Delete 1 analyses of stress run 0badc0de through "+srv.URL+", and remove 1 directories (1 files)") {
		t.Errorf("question: %s", q)
	}
	res, err := plan.Apply(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.LeftAlone() != 4 || srv.has(own.ID) || exists(filepath.Join(root, "server/analyses", own.ID)) {
		t.Fatalf("left alone %d, own analysis there %v", res.LeftAlone(), srv.has(own.ID))
	}
	for _, r := range []history.Record{renamed, moved, stranger, foreignID, rejected} {
		if !srv.has(r.ID) {
			t.Errorf("analysis %s, not the run's, was deleted", r.ID)
		}
	}
	deletes := 0
	for _, r := range srv.requests {
		if strings.HasPrefix(r, "DELETE ") {
			deletes++
			if r != "DELETE /analyses/"+own.ID+".json" {
				t.Errorf("sent %s", r)
			}
		}
	}
	if deletes != 1 || !exists(filepath.Join(root, "server/analyses", foreignID.ID)) {
		t.Fatalf("%d DELETEs: %v", deletes, srv.requests)
	}
}

// TestOpenStudioCleanupRefusals: the state dir is needed, the target must be named or kept
// without a password, a redirect of the probe is not followed, and a sandbox target gets no
// DELETE (its records go with its state directory).
func TestOpenStudioCleanupRefusals(t *testing.T) {
	ctx := context.Background()
	srv, other := newServer(t), newServer(t)
	root := t.TempDir()
	h := &history.History{Header: history.Header{Run: run, Profile: "openstudio"}}
	for _, c := range []struct {
		o    Options
		tgts []string
		want string
	}{
		{Options{}, nil, "pass {StateDir} DIR"},
		{Options{StateDir: filepath.Join(root, "none")}, nil, "is not a directory"},
		{Options{StateDir: root}, nil, "the history names no target"},
		{Options{StateDir: root}, []string{"http://user:xxxxx@127.0.0.1:1"}, "without its password"},
	} {
		h.Header.Targets = c.tgts
		if _, err := ForHistory(ctx, h, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %s", c.o, err, c.want)
		}
	}
	srv.redirect = other.URL
	h.Header.Targets = []string{srv.URL}
	if _, err := ForHistory(ctx, h, Options{StateDir: root, Client: Client(0)}); err == nil || !strings.Contains(err.Error(), "redirected to "+other.URL+"/status") {
		t.Errorf("redirected probe: %v", err)
	}
	if other.count() != 0 {
		t.Errorf("the redirect was followed: %v", other.requests)
	}
}
