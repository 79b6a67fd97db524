package elbenv

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOneJobThroughTheRealService: a Mode B submit to the real service runs through upstream's
// whole path with the fakes: upload, database version, ConfigMaps, dispatch, elastic-blast
// submit, status reads until completed, the results download, and DELETE (which runs
// elastic-blast delete). A wrong token is refused with the service's own 401.
func TestOneJobThroughTheRealService(t *testing.T) {
	t.Parallel()
	const token = "elbenv-test-token"
	s := Start(t, Options{Token: token, JobDuration: 500 * time.Millisecond, DispatchInterval: time.Second, WatchdogInterval: 5 * time.Second})
	c := &http.Client{Timeout: 30 * time.Second}
	do := func(method, path, tok string, body any) (int, []byte) {
		t.Helper()
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
		req, _ := http.NewRequest(method, s.Replicas[0]+path, rd)
		req.Header.Set("X-ELB-API-Token", tok)
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	if st, b := do(http.MethodGet, "/v1/jobs", "wrong", nil); st != http.StatusUnauthorized || !strings.Contains(string(b), "missing or invalid X-ELB-API-Token") {
		t.Fatalf("wrong token: %d %s", st, b)
	}
	st, b := do(http.MethodPost, "/v1/jobs", token, map[string]any{"program": "blastn", "db": DB, "query_fasta": ">q\nACGT\n", "idempotency_key": "elbenv-1"})
	var sub struct {
		JobID     string `json:"job_id"`
		DBVersion string `json:"db_version"`
	}
	if err := json.Unmarshal(b, &sub); err != nil || st != http.StatusAccepted || sub.JobID != "e264e1c0962d" || sub.DBVersion != "2026-06-01-01-05-02" {
		t.Fatalf("submit: %d %s", st, b)
	}
	deadline := time.Now().Add(30 * time.Second)
	for status := ""; status != "completed"; {
		if time.Now().After(deadline) {
			t.Fatalf("the job is still %s after 30s", status)
		}
		time.Sleep(300 * time.Millisecond)
		_, b := do(http.MethodGet, "/v1/jobs/"+sub.JobID+"/status", token, nil)
		var v struct{ Status string }
		_ = json.Unmarshal(b, &v)
		status = v.Status
	}
	st, b = do(http.MethodGet, "/v1/jobs/"+sub.JobID+"/results", token, nil)
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if st != http.StatusOK || err != nil || len(zr.File) != 1 || !strings.HasPrefix(filepath.Base(zr.File[0].Name), "batch_000-blastn-") {
		t.Fatalf("results: %d %v", st, err)
	}
	if st, b := do(http.MethodDelete, "/v1/jobs/"+sub.JobID, token, nil); st != http.StatusOK {
		t.Fatalf("delete: %d %s", st, b)
	}
	if st, _ := do(http.MethodGet, "/v1/jobs/"+sub.JobID+"/status", token, nil); st != http.StatusNotFound {
		t.Fatalf("status after delete: %d", st)
	}
	calls, _ := os.ReadFile(filepath.Join(s.StateDir, "calls.log"))
	for _, want := range []string{"azcopy cp /tmp/query-", "kubectl apply -f -", "az account show", "elastic-blast submit --cfg", "elastic-blast delete --cfg", "kubectl delete configmap elb-job-"} {
		if !strings.Contains(string(calls), want) {
			t.Errorf("no call %q in calls.log:\n%s", want, calls)
		}
	}
	if _, err := os.Stat("/tmp/elb-jobs/" + sub.JobID); err == nil {
		// DELETE removes it; Close removes any left.
		t.Errorf("/tmp/elb-jobs/%s left after DELETE", sub.JobID)
	}
}
