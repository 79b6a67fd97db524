package sandbox_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
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

// TestQueueSplitHoldsCeilingButStrandsJobs runs two split-queue replicas (in process, over real
// HTTP) with a ceiling of 2: each admits 1, so the ceiling holds, but replica 1's jobs run 4x
// longer (--job-duration-skew 3), so replica 0 drains its queue and idles while replica 1 still
// has jobs queued: the stranded state, seen in the replicas' own job lists.
func TestQueueSplitHoldsCeilingButStrandsJobs(t *testing.T) {
	dir := t.TempDir()
	var urls []string
	for i := range 2 {
		ts, _ := serve(t, sandbox.Config{StateDir: dir, Queue: sandbox.QueueSplit, Replica: i, Replicas: 2, MaxActive: 2,
			JobDuration: 200 * time.Millisecond, JobDurationSkew: 3})
		urls = append(urls, ts.URL)
	}
	for i, u := range urls {
		st, m, err := getJSON(context.Background(), u+"/status")
		wantDur := []string{"200ms", "800ms"}[i]
		if err != nil || st != 200 || m["queue"] != "split" || m["max_active"] != 2.0 || m["replica_max_active"] != 1.0 || m["job_duration"] != wantDur {
			t.Fatalf("replica %d GET /status: %d %v %v, want queue split, max_active 2 (global), replica_max_active 1, job_duration %s", i, st, m, err, wantDur)
		}
	}
	owner := submitJobs(t, urls, 6) // 3 on each
	for id, r := range owner {
		if st, _, _ := getJSON(context.Background(), urls[1-r]+"/v1/jobs/"+id+"/status"); st != http.StatusNotFound {
			t.Fatalf("replica %d answered %d for a job of replica %d, want 404 (split queues are per replica)", 1-r, st, r)
		}
		break
	}
	mostTotal, mostPerReplica, strandedPolls := 0, 0, 0
	final := map[string]string{}
	deadline := time.Now().Add(20 * time.Second)
	for {
		total, done := 0, true
		var idle, queued [2]bool
		for r, u := range urls {
			n, q := 0, 0
			for _, j := range listJobs(t, u) {
				final[j.JobID] = j.Status
				switch {
				case active(j.Status):
					n++
				case j.Status == "queued":
					q++
				}
			}
			total += n
			mostPerReplica = max(mostPerReplica, n)
			idle[r], queued[r] = n == 0 && q == 0, q > 0
			done = done && n == 0 && q == 0
		}
		mostTotal = max(mostTotal, total)
		if (idle[0] && queued[1]) || (idle[1] && queued[0]) {
			strandedPolls++
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("jobs did not finish within 20s: %v", final)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if mostPerReplica > 1 || mostTotal > 2 {
		t.Fatalf("%d jobs active on one replica, %d in total: the split queue admits 1 per replica, 2 in all", mostPerReplica, mostTotal)
	}
	if strandedPolls == 0 {
		t.Fatal("never saw one replica idle while the other had jobs queued")
	}
	if len(final) != len(owner) {
		t.Fatalf("the replicas list %d jobs, %d were submitted", len(final), len(owner))
	}
	for id, s := range final {
		if s != "completed" {
			t.Errorf("job %s ended %s", id, s)
		}
	}
	t.Logf("most active: %d in total, %d per replica; %d polls saw a replica idle while the other had jobs queued", mostTotal, mostPerReplica, strandedPolls)
}
