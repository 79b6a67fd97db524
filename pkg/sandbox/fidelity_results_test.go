package sandbox_test

import (
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/sandbox"
)

// newResult creates a data point of the analysis and uploads one result file to it; it returns
// the data point's id and the result file's path on the volume.
func newResult(t *testing.T, base, dir, aid, dpID string) (string, string) {
	t.Helper()
	a := sendJSON(t, "POST", base+"/analyses/"+aid+"/data_points.json", map[string]any{"data_point": map[string]any{"uuid": dpID, "name": "fidelity"}})
	if a.status != http.StatusCreated {
		t.Fatalf("create data point: HTTP %d %s", a.status, a.body)
	}
	ct, b := multipartFile(map[string]string{"file[display_name]": "out", "file[type]": "Report"}, "file[attachment]", "out.json", "application/json", []byte(`{"x":1}`))
	up := send(t, "POST", base+"/data_points/"+dpID+"/upload_file.json", ct, b)
	rid, _ := up.obj()["id"].(string)
	if up.status != http.StatusCreated || rid == "" {
		t.Fatalf("upload_file: HTTP %d %s", up.status, up.body)
	}
	p := filepath.Join(dir, "server/assets/data_points", rid, "files/original/out.json")
	if !exists(p) {
		t.Fatalf("result file %s not stored", p)
	}
	return rid, p
}

// TestDeleteResultFiles: DELETE /data_points/:id/result_files (what the simulation worker sends
// before it simulates) answers 204 and destroys the embedded result files with their files and
// the directories left empty; on a missing data point it crashes on nil (500).
func TestDeleteResultFiles(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		base := serveMode(t, mode)
		dir := stateDirOf(t, base)
		aid := newAnalysis(t, base, newProject(t, base), "")
		rid, p := newResult(t, base, dir, aid, "7c0f5a2e-3c1d-4b8e-9a51-0d6f2b7e9c11")
		if a := send(t, "DELETE", base+"/data_points/7c0f5a2e-3c1d-4b8e-9a51-0d6f2b7e9c11/result_files", "", nil); a.status != http.StatusNoContent {
			t.Fatalf("DELETE result_files: HTTP %d %s", a.status, a.body)
		}
		if exists(p) || exists(dir, "server/assets/data_points", rid) {
			t.Errorf("the result file or its directory is still there")
		}
		dp := send(t, "GET", base+"/data_points/7c0f5a2e-3c1d-4b8e-9a51-0d6f2b7e9c11.json", "", nil)
		if _, has := dp.obj()["data_point"].(map[string]any)["result_files"]; has {
			t.Errorf("the data point still lists result files: %s", dp.body)
		}
		wantJSON(t, "DELETE result_files of a missing data point", send(t, "DELETE", base+"/data_points/nope/result_files", "", nil), 500, railsError(500))
	})
}

// TestRunAnalysisDeletesResultFiles: once a start's extraction ran, the stand-in for RunAnalysis
// "simulates" each data point still "na", and, as DjJobs::RunSimulateDataPoint does first,
// deletes its result files; a data point already completed keeps the files uploaded since.
func TestRunAnalysisDeletesResultFiles(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		sh := newShared(t)
		r := sh.replica(t, mode, 10*time.Millisecond, sandbox.Config{})
		aid := newAnalysis(t, r.url, newProject(t, r.url), "")
		if a := uploadZip(t, r.url, aid, "seed.zip", orderedZip(t, []string{"a.txt"}, [][]byte{[]byte("A")})); a.status != 201 {
			t.Fatalf("upload: HTTP %d", a.status)
		}
		_, before := newResult(t, r.url, sh.dir, aid, "7c0f5a2e-3c1d-4b8e-9a51-0d6f2b7e9c11")
		startAnalysis(t, r.url, aid)
		waitIdle(t, []string{r.url})
		if exists(before) {
			t.Fatalf("the result file of a data point the analysis ran is still there: %s", before)
		}
		dp := send(t, "GET", r.url+"/data_points/7c0f5a2e-3c1d-4b8e-9a51-0d6f2b7e9c11.json", "", nil)
		if st := dp.obj()["data_point"].(map[string]any)["status"]; st != "completed" {
			t.Errorf("data point status %v after RunAnalysis, want completed", st)
		}
		// The same data point, completed, is not run again by a later start.
		ct, b := multipartFile(map[string]string{"file[display_name]": "late"}, "file[attachment]", "late.json", "application/json", []byte(`{}`))
		up := send(t, "POST", r.url+"/data_points/7c0f5a2e-3c1d-4b8e-9a51-0d6f2b7e9c11/upload_file.json", ct, b)
		rid, _ := up.obj()["id"].(string)
		startAnalysis(t, r.url, aid)
		waitIdle(t, []string{r.url})
		if !exists(sh.dir, "server/assets/data_points", rid, "files/original/late.json") {
			t.Errorf("a completed data point's later result file was deleted by a second start")
		}
	})
}
