package stress

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/stress/cleanup"
)

// notSandbox serves a sandbox replica behind a proxy whose GET /status does not say it is the
// sandbox, as the real server's does not: the run and cleanup then treat it as a real server.
func notSandbox(t *testing.T, replica string) string {
	u, err := url.Parse(replica)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/status" || r.URL.Path == "/status.json" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"status":{"awake":"2026-12-01T00:00:00Z"}}`)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestCleanupThroughTheAPI: cleanup --history of a run against a server that is not the sandbox
// deletes its analyses with DELETE /analyses/:id.json (an analysis already gone gets none), with
// a dry run and a confirmation, and removes the run's files from the volume. The target's password
// is kept out of the history.
func TestCleanupThroughTheAPI(t *testing.T) {
	t.Parallel() // a small run and cleanups on a sandbox of its own: it overlaps the other parallel tests
	sb := sandboxenv.Start(t, "--replicas", "1", "--locking", "redlock")
	server := notSandbox(t, sb.Replicas[0])
	withPassword := strings.Replace(server, "http://", "http://osctl:s3cret-pw@", 1)
	dir := t.TempDir()
	hist := filepath.Join(dir, "run.jsonl")
	osctl := func(args ...string) (string, int) {
		t.Helper()
		r := runOsctl(t, args...)
		return r.Output, r.Code
	}
	out, code := osctl("stress", "--target", withPassword, "--state-dir", sb.StateDir, "--requests", "300", "--concurrency", "30",
		"--analyses", "4", "--allow-start", "--history", hist, "-o", "json")
	if code != 0 {
		t.Fatalf("the run: exit %d\n%s", code, out)
	}
	b, err := os.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "s3cret-pw") || strings.Contains(out, "s3cret-pw") {
		t.Fatal("the target's password is in the history or the output")
	}
	var ids []string
	for _, line := range strings.Split(string(b), "\n") {
		var r struct{ Op, ID, Outcome string }
		if json.Unmarshal([]byte(line), &r) == nil && r.Op == "create_analysis" && r.Outcome == "acknowledged" {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) != 4 {
		t.Fatalf("analyses %v", ids)
	}
	exists := func(id string) bool {
		t.Helper()
		resp, err := http.Get(server + "/analyses/" + id + ".json")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v struct {
			Analysis *struct {
				ID string `json:"_id"`
			}
		}
		_ = json.NewDecoder(resp.Body).Decode(&v)
		return v.Analysis != nil && v.Analysis.ID == id
	}
	// One analysis is gone before cleanup: it must be reported, not sent a DELETE (which
	// answers 500 for a missing analysis).
	req, _ := http.NewRequest(http.MethodDelete, server+"/analyses/"+ids[0]+".json", nil)
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	resp.Body.Close()
	// The history keeps the target without its password: cleanup says to pass --target.
	if out, code := osctl("stress", "cleanup", "--history", hist, "--state-dir", sb.StateDir, "--dry-run"); code != 2 || !strings.Contains(out, "--target") {
		t.Fatalf("want exit 2 naming --target: %d\n%s", code, out)
	}
	args := []string{"stress", "cleanup", "--history", hist, "--state-dir", sb.StateDir, "--target", server}
	out, code = osctl(append(args, "--dry-run")...)
	if code != 0 || strings.Count(out, "would delete analysis") != 3 || !strings.Contains(out, ids[0]+" is already gone") || !strings.Contains(out, "would remove") {
		t.Fatalf("dry run: %d\n%s", code, out)
	}
	if !exists(ids[1]) {
		t.Fatal("the dry run deleted an analysis")
	}
	if out, code := osctl(args...); code != 2 || !strings.Contains(out, "--yes") {
		t.Fatalf("without a terminal or --yes cleanup must refuse: %d %s", code, out)
	}
	if !exists(ids[1]) {
		t.Fatal("a refused cleanup deleted an analysis")
	}
	out, code = osctl(append(args, "--yes")...)
	if code != 0 || strings.Count(out, "deleted analysis") != 3 {
		t.Fatalf("cleanup: %d\n%s", code, out)
	}
	for _, id := range ids {
		if exists(id) {
			t.Errorf("analysis %s is still there", id)
		}
	}
	var run struct{ Run string }
	_ = json.Unmarshal([]byte(strings.SplitN(string(b), "\n", 2)[0]), &struct{ Header *struct{ Run *string } }{&struct{ Run *string }{&run.Run}})
	if left, _, _ := cleanup.RunDirs(sb.StateDir, run.Run); run.Run == "" || len(left) != 0 {
		t.Fatalf("run %q left directories %v", run.Run, left)
	}
	// Again: everything is already gone, nothing to do.
	if out, code := osctl(append(args, "--yes")...); code != 0 || strings.Count(out, "already gone") != 4 || !strings.Contains(out, "0 directories") {
		t.Fatalf("second cleanup: %d\n%s", code, out)
	}
}
