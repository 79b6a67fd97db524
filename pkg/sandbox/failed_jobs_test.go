package sandbox_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// TestTornZipFailsTheExtractionVisibly: an extraction that reads a torn zip raises, its job stays
// queued, and GET /status/failed_jobs names it (analysis, error, when it began), which is what a
// stress run reads into its history to judge it a failed-extraction finding.
func TestTornZipFailsTheExtractionVisibly(t *testing.T) {
	sh := newShared(t)
	r := sh.replica(t, sandbox.LockingNone, 10*time.Millisecond, sandbox.Config{})
	aid := newAnalysis(t, r.url, newProject(t, r.url), "")
	if a := uploadZip(t, r.url, aid, "seed.zip", orderedZip(t, []string{"a.txt", "b.txt"}, [][]byte{[]byte("A"), []byte("B")})); a.status != 201 {
		t.Fatalf("upload: HTTP %d", a.status)
	}
	// Tear the stored zip as a write in place cut short leaves it: its first half only.
	torn := 0
	_ = filepath.WalkDir(sh.dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".zip") && strings.Contains(p, aid) {
			b, _ := os.ReadFile(p)
			if os.WriteFile(p, b[:len(b)/2], 0o644) == nil {
				torn++
			}
		}
		return nil
	})
	if torn != 1 {
		t.Fatalf("tore %d zips of analysis %s, want 1", torn, aid)
	}
	began := time.Now()
	startAnalysis(t, r.url, aid)
	testenv.Eventually(t, time.Minute, "the InitializeAnalysis job to fail", func() bool { return workerStatus(t, r.url).Failed == 1 })
	base, _ := url.Parse(r.url)
	jobs, err := profile.FailedExtractions(context.Background(), &http.Client{Timeout: 10 * time.Second}, base, func(a string) bool { return a == aid })
	if err != nil || len(jobs) != 1 {
		t.Fatalf("failed extractions: %+v %v, want one", jobs, err)
	}
	j := jobs[0]
	if j.Analysis != aid || j.Exception != "RuntimeError" || !strings.Contains(j.Error, "not a valid zip file") || j.RunAt.Before(began.Add(-time.Second)) || j.Worker == "" {
		t.Errorf("failed extraction %+v", j)
	}
	if st := analysisState(t, r.url, aid); st["jobs"].([]any)[0].(map[string]any)["status"] != "queued" {
		t.Errorf("status after the failure: %v, want the job queued", st)
	}
}

// TestDeadWorkersJobIsFailedAsADirtyExit: a worker that died while performing a job (its
// resque:worker key still set, its pid gone) is pruned by the next worker of the host to start,
// and its job failed with Resque::PruneDeadWorkerDirtyExit, as Resque 2.0 does: a job lost with a
// killed replica is never silently gone.
func TestDeadWorkersJobIsFailedAsADirtyExit(t *testing.T) {
	sh := newShared(t)
	host, _ := os.Hostname()
	dead := host + ":999999999:analysis_wrappers,background" // a pid no process has
	job, _ := json.Marshal(map[string]any{"queue": "analysis_wrappers", "run_at": time.Now().UTC().Format(time.RFC3339Nano),
		"payload": map[string]any{"class": "ResqueJobs::InitializeAnalysis", "args": []any{"batch_run", "a1", "j1"}}})
	ctx := context.Background()
	if err := sh.rdb.SAdd(ctx, sh.key("workers"), dead).Err(); err != nil {
		t.Fatal(err)
	}
	if err := sh.rdb.Set(ctx, sh.key("worker:"+dead), job, 0).Err(); err != nil {
		t.Fatal(err)
	}
	r := sh.replica(t, sandbox.LockingNone, 10*time.Millisecond, sandbox.Config{})
	base, _ := url.Parse(r.url)
	jobs, err := profile.FailedExtractions(ctx, &http.Client{Timeout: 10 * time.Second}, base, func(a string) bool { return a == "a1" })
	if err != nil || len(jobs) != 1 || jobs[0].Exception != history.DirtyExit || jobs[0].Worker != dead {
		t.Fatalf("failed jobs %+v %v, want a1's job failed with %s by %s", jobs, err, history.DirtyExit, dead)
	}
	if n, _ := sh.rdb.Exists(ctx, sh.key("worker:"+dead)).Result(); n != 0 {
		t.Error("the dead worker's key is still there")
	}
	if ok, _ := sh.rdb.SIsMember(ctx, sh.key("workers"), dead).Result(); ok {
		t.Error("the dead worker is still registered")
	}
}
