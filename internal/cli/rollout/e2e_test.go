package rollout_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/rollouttest"
	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/rollout"
)

// The happy path, in process: 1 -> 2 -> 3 with a final range 2-4 and the nfs (every pod,
// new ones included), locks (a real Redis with a live lock), pods and http gates on, after the
// preconditions (stress report, NFS preflight, Redis preflight).
func TestRunHappyPath(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	w := rollouttest.New(t, k, rollouttest.Options{MinReadySeconds: 2, HPALabels: map[string]string{"app.kubernetes.io/managed-by": "Helm"},
		HPAAnnotations: map[string]string{"meta.helm.sh/release-name": "osrel"}})
	rd := testenv.StartRedis(t)
	if err := rd.Client().Set(context.Background(), lock.Key("42", "run"), "a-live-holder", 20*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer srv.Close()
	report := rollouttest.StressReport(t, w.NS, "clean", true, rollouttest.Image, 4, time.Now().Add(-time.Hour))

	code, out, errOut := runInProcess(t, context.Background(), k.Kubeconfig, w.NS, []string{rd.URL()}, "run", "--hpa", "web",
		"--steps", "1,2,3", "--final-min", "2", "--final-max", "4", "--hold", "1s", "--gate-interval", "400ms",
		"--gates", "nfs,locks,pods", "--gate-http", srv.URL, "--stress-report", report, "--yes")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	mustContain(t, "stdout", out, "rollout completed: HPA range 2-4", "passed", "completed")
	mustContain(t, "stderr", errOut, "step 3/3 passed", "nfs PASS", "locks PASS", "pods PASS", "http PASS",
		"the next helm upgrade resets", "persist the final range in the release values (web_hpa.maxReplicas=4, web_hpa.minReplicas=2)", "rollout.report.verdict")
	if min, max, _ := w.HPA(t); min != 2 || max != 4 {
		t.Fatalf("HPA %d-%d, want 2-4", min, max)
	}
	w.WaitSettled(t, 3, 10*time.Second)
	j := journal(t, w)
	if j.Phase != rollout.PhaseCompleted || j.LastGood != 3 || j.Original.Range != (rollout.Range{Min: 1, Max: 1}) {
		t.Fatalf("journal %+v", j)
	}
	if hits.Load() < 3 {
		t.Errorf("the http gate ran %d times, want at least once per step", hits.Load())
	}
	// The nfs gate read every pod, the new ones included.
	for _, g := range j.Gates {
		if g.Gate == "nfs" && g.Status != "pass" {
			t.Errorf("nfs gate %+v", g)
		}
	}
	ev := strings.Join(w.Events(t), ",")
	mustContain(t, "Events", ev, "RolloutStarted", "RolloutStep", "RolloutStepPassed", "RolloutCompleted")

	// status -o json from "another terminal".
	code, out, errOut = runInProcess(t, context.Background(), k.Kubeconfig, w.NS, nil, "status", "--hpa", "web", "-o", "json")
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, errOut)
	}
	var st rollout.StatusView
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("status -o json: %v\n%s", err, out)
	}
	if st.Journal == nil || st.Journal.Phase != rollout.PhaseCompleted || st.Range != (rollout.Range{Min: 2, Max: 4}) || st.State.Ready != 3 {
		t.Fatalf("status %+v", st)
	}
}

// plan prints the steps and patches and changes nothing; the single-owner mark refuses a run
// above one replica before anything changes.
func TestPlanAndSingleOwner(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	w := rollouttest.New(t, k, rollouttest.Options{Min: 2, Max: 6, DeployAnnots: map[string]string{rollout.AnnotationSingleOwner: "true"}})
	code, out, errOut := runInProcess(t, context.Background(), k.Kubeconfig, w.NS, nil, "plan", "--hpa", "web", "--steps", "1,2,4", "--final-min", "2", "--final-max", "4")
	if code != 0 {
		t.Fatalf("plan: exit %d: %s", code, errOut)
	}
	mustContain(t, "plan", out, `{"spec":{"maxReplicas":1,"minReplicas":1}}`, `{"spec":{"maxReplicas":4,"minReplicas":2}}`,
		"lowers the HPA from 2-6 to 1", "REFUSED", "nothing was changed")
	code, out, _ = runInProcess(t, context.Background(), k.Kubeconfig, w.NS, nil, "plan", "--hpa", "web", "--steps", "1,2", "-o", "json")
	var v rollout.PlanView
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || !v.ScalesDown || len(v.Steps) != 3 || v.Current != (rollout.Range{Min: 2, Max: 6}) {
		t.Fatalf("plan -o json: %d %s", code, out)
	}
	code, _, errOut = runInProcess(t, context.Background(), k.Kubeconfig, w.NS, nil, "run", "--hpa", "web", "--steps", "1,2", "--skip-validation", "--yes")
	if code != 1 || !strings.Contains(errOut, "osctl.io/single-owner") || !strings.Contains(errOut, "nothing was changed") {
		t.Fatalf("run on a single-owner workload: exit %d\n%s", code, errOut)
	}
	if min, max, ann := w.HPA(t); min != 2 || max != 6 || ann[rollout.AnnotationJournal] != "" {
		t.Fatalf("HPA changed: %d-%d %v", min, max, ann)
	}
	// Without a terminal and without --yes, run refuses to act.
	w2 := rollouttest.New(t, k, rollouttest.Options{})
	code, _, errOut = runInProcess(t, context.Background(), k.Kubeconfig, w2.NS, nil, "run", "--hpa", "web", "--steps", "1", "--gates", "")
	if code != 2 || !strings.Contains(errOut, "--yes") {
		t.Fatalf("run without --yes: exit %d\n%s", code, errOut)
	}
	if j := journal(t, w2); j != nil {
		t.Fatalf("journal written without confirmation: %+v", j)
	}
	// --dry-run=server sends every patch, stores nothing.
	rd := testenv.StartRedis(t)
	code, out, errOut = runInProcess(t, context.Background(), k.Kubeconfig, w2.NS, []string{rd.URL()}, "run", "--hpa", "web", "--steps", "1",
		"--final-min", "1", "--final-max", "3", "--gates", "", "--skip-validation", "--dry-run=server")
	if code != 0 || !strings.Contains(out, "dry run") || !strings.Contains(errOut, `server accepted (dry run): {"spec":{"maxReplicas":3,"minReplicas":1}}`) {
		t.Fatalf("dry run: exit %d\n%s\n%s", code, out, errOut)
	}
	if min, max, ann := w2.HPA(t); min != 1 || max != 1 || ann[rollout.AnnotationJournal] != "" {
		t.Fatalf("dry run changed the HPA: %d-%d %v", min, max, ann)
	}
	if _, err := k.Clients.Clientset.CoordinationV1().Leases(w2.NS).Get(context.Background(), rollout.LeaseName("web"), metav1.GetOptions{}); err == nil {
		t.Fatal("dry run created a Lease")
	}
}
