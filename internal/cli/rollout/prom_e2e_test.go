package rollout_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/rollouttest"
	"github.com/osctl/osctl/pkg/redisproc"
	"github.com/osctl/osctl/pkg/rollout"
)

const errorRateOK = "osctl_test_error_ratio < bool 0.01"

// promApp is an application's metrics as a real Prometheus scrapes them: an exporter on
// loopback whose error ratio the test sets, and osctl_test_pods{pod=a|b} for a query that fails
// when it runs.
func promApp(t *testing.T) *testenv.Prometheus {
	t.Helper()
	exp := testenv.StartExporter(t)
	exp.Set("osctl_test_error_ratio", 0.001)
	exp.Set("osctl_test_pods", 1, "pod", "a")
	exp.Set("osctl_test_pods", 1, "pod", "b")
	prom := testenv.StartPrometheus(t, testenv.PromOptions{Jobs: []testenv.PromJob{{Name: "web", Targets: []string{exp.Addr}}}})
	prom.WaitQuery(t, 30*time.Second, "osctl_test_error_ratio", func(v model.Vector) bool { return len(v) == 1 })
	return prom
}

// TestPromGate: a rollout on the real control plane gated on PromQL against a real Prometheus.
func TestPromGate(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	prom := promApp(t)
	rd := testenv.StartRedis(t)

	// The error ratio is good while the Deployment runs one replica and bad from two on, read
	// at the moment Prometheus scrapes: step 1 passes, step 2 fails and rolls back to 1-1.
	t.Run("bad value at step 2", func(t *testing.T) {
		t.Parallel()
		w := rollouttest.New(t, k, rollouttest.Options{})
		app := testenv.StartExporter(t)
		app.OnScrape(func() {
			d, err := k.Clients.Clientset.AppsV1().Deployments(w.NS).Get(context.Background(), "web", metav1.GetOptions{})
			if err == nil && d.Spec.Replicas != nil && *d.Spec.Replicas >= 2 {
				app.Set("osctl_test_error_ratio", 0.25)
			} else {
				app.Set("osctl_test_error_ratio", 0.001)
			}
		})
		p2 := testenv.StartPrometheus(t, testenv.PromOptions{Jobs: []testenv.PromJob{{Name: "web", Targets: []string{app.Addr}}}})
		p2.WaitQuery(t, 30*time.Second, "osctl_test_error_ratio", func(v model.Vector) bool { return len(v) == 1 })
		report := rollouttest.StressReport(t, w.NS, "clean", true, rollouttest.Image, 2, time.Now().Add(-time.Hour))
		code, out, errOut := runInProcess(t, context.Background(), k.Kubeconfig, w.NS, []string{rd.URL()}, "run", "--hpa", "web",
			"--steps", "1,2", "--hold", "12s", "--gate-interval", "300ms", "--gates", "", "--stress-report", report,
			"--prometheus", p2.URL(), "--gate-prom", errorRateOK, "--yes")
		if code != 1 {
			t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
		}
		mustContain(t, "stderr", errOut, "step 1/2 passed", "prom-1 PASS", "prom-1 FAIL", `"`+errorRateOK+`" returned {instance=`, "} 0: 1 of 1 samples are 0")
		if min, max, _ := w.HPA(t); min != 1 || max != 1 {
			t.Fatalf("HPA %d-%d after the rollback, want 1-1", min, max)
		}
		w.WaitSettled(t, 1, 30*time.Second)
		j := journal(t, w)
		if j.Phase != rollout.PhaseRolledBack || j.LastGood != 1 || !strings.Contains(j.Reason, `step 2 (2 replicas): gate prom-1 failed: "`+errorRateOK+`" returned`) {
			t.Fatalf("journal: phase %s, last good %d, reason %q", j.Phase, j.LastGood, j.Reason)
		}
		var rolled bool
		for _, e := range j.History {
			rolled = rolled || (e.Event == "rollback" && strings.Contains(e.Message, errorRateOK) && strings.Contains(e.Message, "} 0"))
		}
		if !rolled {
			t.Fatalf("no rollback entry naming the query and its value: %+v", j.History)
		}
		if len(j.Gates) != 1 || j.Gates[0].Gate != "prom-1" || j.Gates[0].Status != "fail" || !strings.HasSuffix(j.Gates[0].Value, "} 0") {
			t.Fatalf("journal gates %+v", j.Gates)
		}
		// status shows the gate's last value.
		code, out, _ = runInProcess(t, context.Background(), k.Kubeconfig, w.NS, nil, "status", "--hpa", "web")
		if code != 0 {
			t.Fatalf("status: exit %d", code)
		}
		mustContain(t, "status", out, "gate prom-1: FAIL", errorRateOK, "} 0: 1 of 1 samples are 0")
	})

	// Good values pass every step; a query without data passes with --gate-prom-no-data pass;
	// a password in the Prometheus URL reaches neither the journal nor the output.
	t.Run("good values, no data allowed, masked URL", func(t *testing.T) {
		t.Parallel()
		w := rollouttest.New(t, k, rollouttest.Options{})
		report := rollouttest.StressReport(t, w.NS, "clean", true, rollouttest.Image, 2, time.Now().Add(-time.Hour))
		url := strings.Replace(prom.URL(), "http://", "http://ops:hunter2@", 1)
		args := []string{"--hpa", "web", "--steps", "1,2", "--hold", "1s", "--gate-interval", "300ms", "--gates", "",
			"--prometheus", url, "--gate-prom", errorRateOK, "--gate-prom", "osctl_test_absent < bool 1", "--gate-prom-no-data", "pass"}
		code, out, errOut := runInProcess(t, context.Background(), k.Kubeconfig, w.NS, nil, append([]string{"plan"}, args...)...)
		if code != 0 {
			t.Fatalf("plan: exit %d\n%s\n%s", code, out, errOut)
		}
		mustContain(t, "plan", out, "PromQL gates on "+prom.URL()+" (", "no data passes", "prom-1: "+errorRateOK, "prom-2: osctl_test_absent < bool 1", "gates [prom-1, prom-2]")
		code, out, errOut = runInProcess(t, context.Background(), k.Kubeconfig, w.NS, []string{rd.URL()},
			append(append([]string{"run"}, args...), "--stress-report", report, "--yes")...)
		if code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
		}
		mustContain(t, "stderr", errOut, "step 2/2 passed", "prom-1 PASS", "prom-2 WARN", "returned no data (passes: no data is set to pass)", `"`+errorRateOK+`" returned {instance=`)
		_, _, ann := w.HPA(t)
		for what, s := range map[string]string{"journal": ann[rollout.AnnotationJournal], "stdout": out, "stderr": errOut} {
			if strings.Contains(s, "hunter2") {
				t.Fatalf("the %s shows the Prometheus password:\n%s", what, s)
			}
		}
		j := journal(t, w)
		if j.Phase != rollout.PhaseCompleted || strings.Join(j.Plan.GateRecord.Names, ",") != "prom-1,prom-2" || strings.Contains(ann[rollout.AnnotationJournal], `"url"`) {
			t.Fatalf("journal %s, gates %+v", j.Phase, j.Plan.GateRecord)
		}
		code, out, _ = runInProcess(t, context.Background(), k.Kubeconfig, w.NS, nil, "status", "--hpa", "web", "-o", "json")
		var st rollout.StatusView
		if code != 0 || json.Unmarshal([]byte(out), &st) != nil || len(st.Journal.Gates) != 2 || st.Journal.Gates[0].Value == "" || st.Journal.Gates[1].Value != "no data" {
			t.Fatalf("status -o json: %d %s", code, out)
		}
	})

	// No data fails the gate; a query that fails when it runs fails it with Prometheus's
	// message; both roll back (exit 1). A query that does not parse, or a Prometheus that does
	// not answer, is exit 2 before anything changes.
	t.Run("no data, bad queries, Prometheus down", func(t *testing.T) {
		t.Parallel()
		w := rollouttest.New(t, k, rollouttest.Options{})
		base := []string{"run", "--hpa", "web", "--steps", "1", "--hold", "5s", "--gate-interval", "300ms", "--gates", "", "--yes"}
		rolledBack := func(query, want string) {
			t.Helper()
			code, out, errOut := runInProcess(t, context.Background(), k.Kubeconfig, w.NS, nil, append(base, "--prometheus", prom.URL(), "--gate-prom", query)...)
			if code != 1 {
				t.Fatalf("%s: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", query, code, out, errOut)
			}
			j := journal(t, w)
			if j.Phase != rollout.PhaseRolledBack || !strings.Contains(j.Reason, "gate prom-1 failed: \""+query+"\"") || !strings.Contains(j.Reason, want) {
				t.Fatalf("%s: journal %s, reason %q, want %q", query, j.Phase, j.Reason, want)
			}
			mustContain(t, "stderr", errOut, want, "ROLLING BACK")
		}
		rolledBack("osctl_test_absent < bool 1", "returned no data")
		rolledBack("osctl_test_pods * on() osctl_test_pods", "answered execution: ")

		before := journal(t, w)
		port, err := redisproc.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ url, query, want string }{
			{prom.URL(), "sum(osctl_test_error_ratio", "rejects it: invalid parameter \"query\": 1:"},
			{"http://127.0.0.1:" + strconv.Itoa(port), errorRateOK, "connection refused"},
		} {
			code, out, errOut := runInProcess(t, context.Background(), k.Kubeconfig, w.NS, nil, append(base, "--prometheus", tc.url, "--gate-prom", tc.query)...)
			if code != 2 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "nothing was changed") {
				t.Fatalf("%s on %s: exit %d, want 2 with %q\nstdout:\n%s\nstderr:\n%s", tc.query, tc.url, code, tc.want, out, errOut)
			}
			if after := journal(t, w); after.ID != before.ID || after.Phase != before.Phase {
				t.Fatalf("a refused rollout changed the journal: %s %s", after.ID, after.Phase)
			}
		}
	})
}
