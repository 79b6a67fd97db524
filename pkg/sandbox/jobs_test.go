package sandbox_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

type jobView struct {
	JobID  string `json:"job_id"`
	Status string `json:"status"`
}

func active(s string) bool { return s == "dispatching" || s == "submitting" || s == "running" }

func submitJobs(t *testing.T, replicas []string, n int) map[string]int {
	t.Helper()
	owner := map[string]int{}
	for i := range n {
		r := i % len(replicas)
		st, m, err := postJSON(context.Background(), replicas[r]+"/v1/jobs", map[string]any{"program": "blastn", "db": "nt"})
		if err != nil || st != http.StatusAccepted || m["status"] != "queued" || m["status_url"] == nil {
			t.Fatalf("submit to replica %d: %d %v %v", r, st, m, err)
		}
		owner[m["job_id"].(string)] = r
	}
	return owner
}

// listJobs returns a replica's view of the jobs (GET /v1/jobs).
func listJobs(t *testing.T, base string) []jobView {
	t.Helper()
	st, out, err := call(context.Background(), http.MethodGet, base+"/v1/jobs", "", nil)
	if err != nil || st != 200 {
		t.Fatalf("GET /v1/jobs: %d %v", st, err)
	}
	var v struct {
		Jobs []jobView `json:"jobs"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	return v.Jobs
}

// watchJobs polls every replica every 50 ms until every job is final (at most limit) and returns
// the most jobs seen active at once across replicas, and the final state of every job seen.
func watchJobs(t *testing.T, replicas []string, perReplicaView bool, limit time.Duration) (int, map[string]string) {
	t.Helper()
	most := 0
	final := map[string]string{}
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		states := map[string]string{}
		if perReplicaView {
			for _, r := range replicas {
				for _, j := range listJobs(t, r) {
					states[j.JobID] = j.Status
				}
			}
		} else {
			for _, j := range listJobs(t, replicas[0]) {
				states[j.JobID] = j.Status
			}
		}
		n, done := 0, true
		for _, s := range states {
			if active(s) {
				n++
			}
			if s == "queued" || active(s) {
				done = false
			}
		}
		most = max(most, n)
		final = states
		if done && len(states) > 0 {
			return most, final
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("jobs did not finish within %v: %v", limit, final)
	return 0, nil
}

func TestQueueLocalExceedsCeilingAtTwoReplicas(t *testing.T) {
	sb := testenv.StartSandbox(t, "--replicas", "2", "--queue", "local", "--max-active", "2", "--job-duration", "1s")
	owner := submitJobs(t, sb.Replicas, 8)
	// Each replica only knows its own jobs.
	for id, r := range owner {
		other := sb.Replicas[(r+1)%2]
		if st, _, _ := getJSON(context.Background(), other+"/v1/jobs/"+id+"/status"); st != http.StatusNotFound {
			t.Fatalf("replica %d answered %d for a job of replica %d, want 404", (r+1)%2, st, r)
		}
		break
	}
	most, final := watchJobs(t, sb.Replicas, true, 20*time.Second)
	if most <= 2 {
		t.Fatalf("at most %d jobs active at once with 2 replicas x --max-active 2: the per-replica ceiling should have let 4 run", most)
	}
	for id, s := range final {
		if s != "completed" {
			t.Errorf("job %s ended %s", id, s)
		}
	}
	t.Logf("most active at once: %d (ceiling 2)", most)
}

func TestQueueSharedHoldsCeilingAndEveryReplicaAnswers(t *testing.T) {
	sb := testenv.StartSandbox(t, "--replicas", "2", "--queue", "shared", "--max-active", "2", "--job-duration", "500ms")
	owner := submitJobs(t, sb.Replicas, 8)
	for id := range owner {
		for i, r := range sb.Replicas {
			if st, m, _ := getJSON(context.Background(), r+"/v1/jobs/"+id+"/status"); st != 200 || m["job_id"] != id {
				t.Fatalf("replica %d answered %d %v for job %s", i, st, m, id)
			}
		}
	}
	most, final := watchJobs(t, sb.Replicas, false, 30*time.Second)
	if most > 2 {
		t.Fatalf("%d jobs active at once with --queue shared --max-active 2", most)
	}
	if most < 2 {
		t.Errorf("never more than %d job active: the shared queue ran jobs one by one", most)
	}
	if len(final) != len(owner) {
		t.Fatalf("replica 0 lists %d jobs, %d were submitted", len(final), len(owner))
	}
	for id, s := range final {
		if s != "completed" {
			t.Errorf("job %s ended %s", id, s)
		}
	}
	// A finished job cannot be cancelled; a queued one can, from any replica.
	for id := range owner {
		if st, _, _ := call(context.Background(), http.MethodDelete, sb.Replicas[1]+"/v1/jobs/"+id, "", nil); st != http.StatusConflict {
			t.Errorf("DELETE of a completed job: %d, want 409", st)
		}
		break
	}
	t.Logf("most active at once: %d (ceiling 2)", most)
}
