package sandbox_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv/sandboxenv"
)

// The job API as `osctl sandbox up` serves it: two replica processes, a ceiling of 2, a required
// token, a short tick so that the tests stay short.
var jobSandboxArgs = []string{"--replicas", "2", "--max-active", "2", "--job-duration", "1s", "--dispatch-interval", "1s", "--api-token", testToken}

func TestJobAPIQueueLocalExceedsCeiling(t *testing.T) {
	sb := sandboxenv.Start(t, append([]string{"--queue", "local"}, jobSandboxArgs...)...)
	owner := submitJobs(t, sb.Replicas, 12, testToken)
	most, final := watchJobs(t, sb.Replicas, owner, testToken, 60*time.Second)
	if most <= 2 {
		t.Fatalf("at most %d jobs active at once with 2 replicas x --max-active 2: each replica's own ceiling should have let 4 run", most)
	}
	for id, s := range final {
		if s != "completed" {
			t.Errorf("job %s ended %s", id, s)
		}
	}
	t.Logf("most active at once: %d (ceiling 2)", most)
}

func TestJobAPIQueueSharedHoldsCeiling(t *testing.T) {
	sb := sandboxenv.Start(t, append([]string{"--queue", "shared"}, jobSandboxArgs...)...)
	owner := submitJobs(t, sb.Replicas, 12, testToken)
	for id := range owner {
		for i, r := range sb.Replicas {
			if m := status(t, r, id, testToken); m["job_id"] != id {
				t.Fatalf("replica %d answered %v for job %s", i, m, id)
			}
		}
	}
	most, final := watchJobs(t, sb.Replicas, owner, testToken, 90*time.Second)
	if most > 2 {
		t.Fatalf("%d jobs active at once with --queue shared --max-active 2", most)
	}
	if most < 2 {
		t.Errorf("never more than %d job active: the shared queue ran jobs one by one", most)
	}
	for id, s := range final {
		if s != "completed" {
			t.Errorf("job %s ended %s", id, s)
		}
	}
	if n := len(listJobs(t, sb.Replicas[1], testToken)); n != len(owner) {
		t.Fatalf("replica 1 lists %d jobs, %d were submitted", n, len(owner))
	}
	t.Logf("most active at once: %d (ceiling 2)", most)
}

func TestJobAPIWrongToken(t *testing.T) {
	sb := sandboxenv.Start(t, append([]string{"--queue", "shared"}, jobSandboxArgs...)...)
	ctx := context.Background()
	for i, r := range sb.Replicas {
		for _, tok := range []string{"", "not-the-token"} {
			st, m, err := jobCall(ctx, http.MethodPost, r+"/v1/jobs", tok, jobBody("wrong-token"))
			if err != nil || st != http.StatusUnauthorized || m["detail"] != "missing or invalid X-ELB-API-Token" {
				t.Errorf("replica %d, token %q: %d %v %v, want 401", i, tok, st, m, err)
			}
		}
		if n := len(listJobs(t, r, testToken)); n != 0 {
			t.Errorf("replica %d holds %d jobs after refused submits", i, n)
		}
	}
	if st, _, _ := getJSON(ctx, sb.URL(0, "/healthz")); st != http.StatusOK {
		t.Errorf("/healthz: %d, want 200 without a token", st)
	}
}
