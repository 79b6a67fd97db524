package openstudio

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv/cleanupenv"
	"github.com/osctl/osctl/pkg/stress/cleanup"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// create is an acknowledged create of the run's i-th analysis, as osctl stress records it.
func create(seq int64, i int) history.Record {
	id := profile.AnalysisID(runID, i)
	return history.Record{Seq: seq, Op: history.OpCreateAnalysis, Setup: true, Nonce: profile.Nonce(runID, seq), Upload: history.Upload{Project: "p-1", Analysis: id}, ID: id, Returned: id,
		Outcome: history.Acknowledged, Status: 201}
}

// analysisAsServed is the analysis as the server keeps what a create sent.
func analysisAsServed(r history.Record) map[string]any {
	return map[string]any{"_id": r.ID, "uuid": r.ID, "name": r.Nonce, "display_name": "osctl stress " + runID, "project_id": r.Project}
}

// TestOpenStudioCleanupDeletesOnlyWhatTheServerNamesAsTheRuns: an analysis is deleted only when
// the server still names it as the run did; one whose name or project differs, one the history
// names with another run's nonce, and one whose id is not one of the run's are left alone and
// never sent a DELETE. One already gone gets no DELETE either. The run's files go.
func TestOpenStudioCleanupDeletesOnlyWhatTheServerNamesAsTheRuns(t *testing.T) {
	srv := cleanupenv.NewServer(t)
	own, renamed, moved, gone := create(2, 0), create(3, 1), create(4, 2), create(5, 3)
	stranger := create(6, 4)
	stranger.Nonce = profile.Nonce("0badc0df", 6)
	foreignID := create(7, 5)
	foreignID.ID, foreignID.Returned, foreignID.Analysis = "0badc0de-3c1d-4b8e-9a51-0d6f2b7e9c11", "0badc0de-3c1d-4b8e-9a51-0d6f2b7e9c11", "0badc0de-3c1d-4b8e-9a51-0d6f2b7e9c11"
	rejected := create(8, 6)
	rejected.Outcome = history.Rejected
	for _, r := range []history.Record{own, renamed, moved, stranger, foreignID, rejected} {
		srv.Analyses[r.ID] = analysisAsServed(r)
	}
	srv.Analyses[renamed.ID]["name"] = "someone's analysis"
	srv.Analyses[moved.ID]["project_id"] = map[string]any{"$oid": "p-2"}
	root := t.TempDir()
	cleanupenv.Mkdirs(t, root, "server/analyses/"+own.ID+"/seed.zip", "server/analyses/"+foreignID.ID+"/seed.zip")

	h := cleanupenv.ReadHistory(t, cleanupenv.WriteHistory(t, history.Header{Run: runID, Profile: "openstudio", Targets: []string{srv.URL}},
		own, renamed, moved, gone, stranger, foreignID, rejected))
	plan, err := cleanup.ForHistory(context.Background(), h, cleanup.Options{StateDir: root, Client: cleanup.Client(0)})
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
	if res.LeftAlone() != 4 || srv.Has(own.ID) || cleanupenv.Exists(filepath.Join(root, "server/analyses", own.ID)) {
		t.Fatalf("left alone %d, own analysis there %v", res.LeftAlone(), srv.Has(own.ID))
	}
	for _, r := range []history.Record{renamed, moved, stranger, foreignID, rejected} {
		if !srv.Has(r.ID) {
			t.Errorf("analysis %s, not the run's, was deleted", r.ID)
		}
	}
	deletes := 0
	for _, r := range srv.Requests {
		if strings.HasPrefix(r, "DELETE ") {
			deletes++
			if r != "DELETE /analyses/"+own.ID+".json" {
				t.Errorf("sent %s", r)
			}
		}
	}
	if deletes != 1 || !cleanupenv.Exists(filepath.Join(root, "server/analyses", foreignID.ID)) {
		t.Fatalf("%d DELETEs: %v", deletes, srv.Requests)
	}
}

// TestOpenStudioCleanupRefusals: the state dir is needed, the target must be named or kept
// without a password, a redirect of the probe is not followed, and a sandbox target gets no
// DELETE (its records go with its state directory).
func TestOpenStudioCleanupRefusals(t *testing.T) {
	ctx := context.Background()
	srv, other := cleanupenv.NewServer(t), cleanupenv.NewServer(t)
	root := t.TempDir()
	h := &history.History{Header: history.Header{Run: runID, Profile: "openstudio"}}
	for _, c := range []struct {
		o    cleanup.Options
		tgts []string
		want string
	}{
		{cleanup.Options{}, nil, "pass {StateDir} DIR"},
		{cleanup.Options{StateDir: filepath.Join(root, "none")}, nil, "is not a directory"},
		{cleanup.Options{StateDir: root}, nil, "the history names no target"},
		{cleanup.Options{StateDir: root}, []string{"http://user:xxxxx@127.0.0.1:1"}, "without its password"},
	} {
		h.Header.Targets = c.tgts
		if _, err := cleanup.ForHistory(ctx, h, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %s", c.o, err, c.want)
		}
	}
	srv.Redirect = other.URL
	h.Header.Targets = []string{srv.URL}
	if _, err := cleanup.ForHistory(ctx, h, cleanup.Options{StateDir: root, Client: cleanup.Client(0)}); err == nil || !strings.Contains(err.Error(), "redirected to "+other.URL+"/status") {
		t.Errorf("redirected probe: %v", err)
	}
	if other.Count() != 0 {
		t.Errorf("the redirect was followed: %v", other.Requests)
	}
}

// runID is the run the cleanup tests clean up.
const runID = "0badc0de"
