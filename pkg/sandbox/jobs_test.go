package sandbox_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/sandbox"
)

// testToken is the job API token of the tests that need one.
const testToken = "sandbox-test-token-7f3a"

// jobBody is a valid Mode B submit whose idempotency key is key.
func jobBody(key string) map[string]any {
	return map[string]any{"db": "16S_ribosomal_RNA", "program": "blastn", "query_fasta": ">" + key + "\nACGTACGTACGT\n", "idempotency_key": key}
}

// jobCall sends a job API request with the token (none when empty) and decodes the answer.
func jobCall(ctx context.Context, method, url, token string, body any) (int, map[string]any, error) {
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set(sandbox.TokenHeader, token)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m, nil
}

var jobKeys atomic.Int64

// submitJobs submits n jobs round-robin over the replicas and returns each job's replica.
func submitJobs(t *testing.T, replicas []string, n int, token string) map[string]int {
	t.Helper()
	owner := map[string]int{}
	for i := range n {
		r := i % len(replicas)
		st, m, err := jobCall(context.Background(), http.MethodPost, replicas[r]+"/v1/jobs", token, jobBody(fmt.Sprintf("%s-%d", t.Name(), jobKeys.Add(1))))
		if err != nil || st != http.StatusAccepted || m["status_url"] == nil {
			t.Fatalf("submit to replica %d: %d %v %v", r, st, m, err)
		}
		owner[m["job_id"].(string)] = r
	}
	return owner
}

// status reads one job's status (which refreshes it, as the real service does).
func status(t *testing.T, base, id, token string) map[string]any {
	t.Helper()
	st, m, err := jobCall(context.Background(), http.MethodGet, base+"/v1/jobs/"+id+"/status", token, nil)
	if err != nil || st != http.StatusOK {
		t.Fatalf("GET status of %s: %d %v %v", id, st, m, err)
	}
	return m
}

// listJobs returns a replica's GET /v1/jobs (which refreshes nothing).
func listJobs(t *testing.T, base, token string) []map[string]any {
	t.Helper()
	st, m, err := jobCall(context.Background(), http.MethodGet, base+"/v1/jobs", token, nil)
	if err != nil || st != 200 {
		t.Fatalf("GET /v1/jobs: %d %v", st, err)
	}
	var out []map[string]any
	for _, j := range m["jobs"].([]any) {
		out = append(out, j.(map[string]any))
	}
	if int(m["count"].(float64)) != len(out) {
		t.Fatalf("count %v for %d jobs", m["count"], len(out))
	}
	return out
}

func listed(t *testing.T, base, token, id string) map[string]any {
	t.Helper()
	for _, j := range listJobs(t, base, token) {
		if j["job_id"] == id {
			return j
		}
	}
	return nil
}

func isActive(s any) bool { return s == "dispatching" || s == "submitting" || s == "running" }

// watchJobs reads every job's status on its own replica every 50 ms until every job is final (at
// most limit) and returns the most jobs seen active in one round of reads, and their final
// states. A job read active keeps its slot until its next read notices it finished, so the jobs
// of one round seen active were all active at once at the end of the round.
func watchJobs(t *testing.T, replicas []string, owner map[string]int, token string, limit time.Duration) (int, map[string]string) {
	t.Helper()
	most := 0
	final := map[string]string{}
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		n, done := 0, true
		for id, r := range owner {
			s := status(t, replicas[r], id, token)["status"].(string)
			final[id] = s
			if isActive(s) {
				n++
			}
			if !sandbox.JobTerminal(s) {
				done = false
			}
		}
		most = max(most, n)
		if done {
			return most, final
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("jobs did not finish within %v: %v", limit, final)
	return 0, nil
}

func TestJobAPIToken(t *testing.T) {
	ts, _ := serve(t, sandbox.Config{Jobs: sandbox.JobsConfig{APIToken: testToken}})
	ctx := context.Background()
	for _, tok := range []string{"", "wrong-token"} {
		st, m, _ := jobCall(ctx, http.MethodPost, ts.URL+"/v1/jobs", tok, jobBody("k1"))
		if st != http.StatusUnauthorized || m["detail"] != "missing or invalid X-ELB-API-Token" {
			t.Errorf("submit with token %q: %d %v, want 401", tok, st, m)
		}
		if st, _, _ := jobCall(ctx, http.MethodGet, ts.URL+"/v1/jobs", tok, nil); st != http.StatusUnauthorized {
			t.Errorf("list with token %q: %d, want 401", tok, st)
		}
	}
	if st, m, _ := jobCall(ctx, http.MethodPost, ts.URL+"/v1/jobs", testToken, jobBody("k1")); st != http.StatusAccepted {
		t.Errorf("submit with the token: %d %v", st, m)
	}
	// Routing comes first: no route is 404, a route with another method 405, token or not.
	for _, c := range []struct {
		method, path string
		want         int
	}{{"GET", "/v1/nowhere", 404}, {"GET", "/v1/jobs/0123456789ab", 405}, {"PUT", "/v1/jobs", 405}, {"GET", "/healthz", 200}} {
		if st, _, _ := jobCall(ctx, c.method, ts.URL+c.path, "", nil); st != c.want {
			t.Errorf("%s %s without a token: %d, want %d", c.method, c.path, st, c.want)
		}
	}
}

func TestJobSubmitValidation(t *testing.T) {
	ts, _ := serve(t, sandbox.Config{})
	ctx := context.Background()
	blob := "https://acct.blob.core.windows.net/"
	for _, c := range []struct {
		name  string
		ctype string
		body  string
		want  int
	}{
		{"no db", "application/json", `{"query_fasta":">a\nACGT"}`, 422},
		{"db not a string", "application/json", `{"db":7,"query_fasta":">a\nACGT"}`, 422},
		{"not JSON", "application/json", `{nope`, 422},
		{"not an object", "application/json", `[1]`, 422},
		{"text/plain body", "text/plain", `{"db":"x","query_fasta":">a\nACGT"}`, 422},
		{"key too long", "application/json", fmt.Sprintf(`{"db":"x","query_fasta":">a","idempotency_key":"%0257d"}`, 0), 422},
		{"key empty", "application/json", `{"db":"x","query_fasta":">a","idempotency_key":""}`, 422},
		{"batch_len 0", "application/json", `{"db":"x","query_fasta":">a","batch_len":0}`, 422},
		{"program unknown", "application/json", `{"db":"x","query_fasta":">a","program":"blastz"}`, 400},
		{"trusted source", "application/json", `{"db":"x","query_fasta":">a","submission_source":"dashboard"}`, 403},
		{"Mode A queries without results", "application/json", `{"db":"` + blob + `db/x","queries":"` + blob + `q/a.fa"}`, 400},
		{"Mode A without anything", "application/json", `{"db":"nt"}`, 400},
		{"Mode A db not a URL", "application/json", `{"db":"nt","queries":"` + blob + `q/a.fa","results":"` + blob + `r/x"}`, 400},
		{"Mode A SAS token", "application/json", `{"db":"` + blob + `db/x","queries":"` + blob + `q/a.fa?sig=1","results":"` + blob + `r/x"}`, 400},
		{"Mode B empty FASTA", "application/json", `{"db":"x","query_fasta":"  "}`, 400},
		{"Mode B db traversal", "application/json", `{"db":"../x","query_fasta":">a"}`, 400},
		{"Mode B bad results_prefix", "application/json", `{"db":"x","query_fasta":">a","results_prefix":"2026/13/01"}`, 400},
		{"Mode A", "application/json", `{"db":"` + blob + `db/x","queries":"` + blob + `q/a.fa","results":"` + blob + `r/x"}`, 202},
		{"Mode B, no Content-Type", "", `{"db":"16S_ribosomal_RNA","query_fasta":">a\nACGT"}`, 202},
		{"Mode B, priority label", "application/json", `{"db":"x","query_fasta":">a","priority":"urgent","request_id":"r1"}`, 202},
	} {
		st, out, err := call(ctx, http.MethodPost, ts.URL+"/v1/jobs", c.ctype, []byte(c.body))
		if err != nil || st != c.want {
			t.Errorf("%s: %d %s %v, want %d", c.name, st, out, err, c.want)
		}
	}
}

func TestJobIdsAndReplaysPerReplica(t *testing.T) {
	dir := t.TempDir()
	var urls []string
	for i := range 2 {
		ts, _ := serve(t, sandbox.Config{StateDir: dir, Replica: i, Replicas: 2, MaxActive: 1, JobDuration: time.Hour})
		urls = append(urls, ts.URL)
	}
	ctx := context.Background()
	sum := sha256.Sum256([]byte("external_api:key-1"))
	want := hex.EncodeToString(sum[:])[:12]
	st, first, _ := jobCall(ctx, http.MethodPost, urls[0]+"/v1/jobs", "", jobBody("key-1"))
	if st != http.StatusAccepted || first["job_id"] != want || first["status_url"] != "/v1/jobs/"+want+"/status" {
		t.Fatalf("submit: %d %v, want job %s", st, first, want)
	}
	if _, ok := first["queue_position"]; !ok {
		t.Errorf("a new job's answer has no queue_position: %v", first)
	}
	st, again, _ := jobCall(ctx, http.MethodPost, urls[0]+"/v1/jobs", "", jobBody("key-1"))
	if _, has := again["queue_position"]; st != http.StatusAccepted || again["job_id"] != want || has || again["message"] != "Existing job returned for idempotency_key." {
		t.Fatalf("replay on the same replica: %d %v", st, again)
	}
	if n := len(listJobs(t, urls[0], "")); n != 1 {
		t.Fatalf("replica 0 holds %d jobs after a replay, want 1", n)
	}
	// The other replica does not know the key: a second job with the same id.
	st, other, _ := jobCall(ctx, http.MethodPost, urls[1]+"/v1/jobs", "", jobBody("key-1"))
	if st != http.StatusAccepted || other["job_id"] != want || other["message"] == again["message"] {
		t.Fatalf("the same key on replica 1: %d %v, want a new job %s", st, other, want)
	}
	if listed(t, urls[1], "", want) == nil {
		t.Fatal("replica 1 does not list its job")
	}
	// Without a key, a random 12-hex id.
	b := jobBody("x")
	delete(b, "idempotency_key")
	_, m, _ := jobCall(ctx, http.MethodPost, urls[0]+"/v1/jobs", "", b)
	if id, _ := m["job_id"].(string); len(id) != 12 || id == want {
		t.Fatalf("job without a key: %v", m)
	}
}

// TestJobDeleteThen404: DELETE of an active job frees its slot and forgets it.
func TestJobDeleteThen404(t *testing.T) {
	ts, _ := serve(t, sandbox.Config{MaxActive: 1, JobDuration: time.Hour,
		Jobs: sandbox.JobsConfig{DispatchInterval: time.Hour, WatchdogInterval: time.Hour}})
	owner := submitJobs(t, []string{ts.URL}, 1, "")
	ctx := context.Background()
	for id := range owner {
		st, m, _ := jobCall(ctx, http.MethodDelete, ts.URL+"/v1/jobs/"+id, "", nil)
		if st != 200 || m["job_id"] != id || m["status"] != "deleted" {
			t.Fatalf("DELETE: %d %v", st, m)
		}
		for _, p := range []string{"GET /v1/jobs/" + id + "/status", "DELETE /v1/jobs/" + id} {
			var method, path string
			_, _ = fmt.Sscan(p, &method, &path)
			if st, _, _ := jobCall(ctx, method, ts.URL+path, "", nil); st != http.StatusNotFound {
				t.Errorf("%s after DELETE: %d, want 404", p, st)
			}
		}
	}
	if n := len(listJobs(t, ts.URL, "")); n != 0 {
		t.Fatalf("%d jobs listed after DELETE", n)
	}
	next := submitJobs(t, []string{ts.URL}, 1, "")
	for id := range next {
		if j := listed(t, ts.URL, "", id); !isActive(j["status"]) {
			t.Fatalf("a submit after the DELETE: %v, want it claimed (the slot was freed)", j)
		}
	}
}

// TestQueueSplitHoldsCeilingButStrandsJobs runs two split-queue replicas (in process, over real
// HTTP) with a ceiling of 2: each admits 1, so the ceiling holds, but replica 1's jobs run 4x
// longer (skew 3), so replica 0 drains its queue and idles while replica 1 still has jobs
// queued: the stranded state, seen in the replicas' own answers.
func TestQueueSplitHoldsCeilingButStrandsJobs(t *testing.T) {
	dir := t.TempDir()
	var urls []string
	for i := range 2 {
		ts, _ := serve(t, sandbox.Config{StateDir: dir, Queue: sandbox.QueueSplit, Replica: i, Replicas: 2, MaxActive: 2,
			JobDuration: 200 * time.Millisecond, JobDurationSkew: 3, Jobs: sandbox.JobsConfig{DispatchInterval: 50 * time.Millisecond}})
		urls = append(urls, ts.URL)
	}
	for i, u := range urls {
		st, m, err := getJSON(context.Background(), u+"/status")
		wantDur := []string{"200ms", "800ms"}[i]
		if err != nil || st != 200 || m["queue"] != "split" || m["max_active"] != 2.0 || m["replica_max_active"] != 1.0 || m["job_duration"] != wantDur {
			t.Fatalf("replica %d GET /status: %d %v %v, want queue split, max_active 2 (global), replica_max_active 1, job_duration %s", i, st, m, err, wantDur)
		}
	}
	owner := submitJobs(t, urls, 6, "") // 3 on each
	for id, r := range owner {
		if st, _, _ := jobCall(context.Background(), http.MethodGet, urls[1-r]+"/v1/jobs/"+id+"/status", "", nil); st != http.StatusNotFound {
			t.Fatalf("replica %d answered %d for a job of replica %d, want 404 (split queues are per replica)", 1-r, st, r)
		}
		break
	}
	mostTotal, mostPerReplica, strandedRounds := 0, 0, 0
	deadline := time.Now().Add(20 * time.Second)
	for {
		var act, queued [2]int
		done := true
		for id, r := range owner {
			s := status(t, urls[r], id, "")["status"]
			switch {
			case isActive(s):
				act[r]++
			case s == "queued":
				queued[r]++
			}
			done = done && sandbox.JobTerminal(s.(string))
		}
		mostTotal = max(mostTotal, act[0]+act[1])
		mostPerReplica = max(mostPerReplica, act[0], act[1])
		if (act[0]+queued[0] == 0 && queued[1] > 0) || (act[1]+queued[1] == 0 && queued[0] > 0) {
			strandedRounds++
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("jobs did not finish within 20s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if mostPerReplica > 1 || mostTotal > 2 {
		t.Fatalf("%d jobs active on one replica, %d in total: the split queue admits 1 per replica, 2 in all", mostPerReplica, mostTotal)
	}
	if strandedRounds == 0 {
		t.Fatal("never saw one replica idle while the other had jobs queued")
	}
	t.Logf("most active: %d in total, %d per replica; %d rounds saw a replica idle while the other had jobs queued", mostTotal, mostPerReplica, strandedRounds)
}
