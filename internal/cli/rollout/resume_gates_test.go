package rollout_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/rollouttest"
	"github.com/osctl/osctl/pkg/rollout"
)

// countingProxy is a real loopback HTTP server in front of Prometheus that counts the requests
// it gets, and those that carry the bearer token.
type countingProxy struct {
	*httptest.Server
	requests, withToken atomic.Int32
}

func newCountingProxy(t *testing.T, target, token string) *countingProxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &countingProxy{}
	rp := httputil.NewSingleHostReverseProxy(u)
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.requests.Add(1)
		if r.Header.Get("Authorization") == "Bearer "+token {
			p.withToken.Add(1)
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}

// crashedJournal writes on the workload's HPA the journal of a rollout whose osctl died at step 1
// of 1, with gates (the record of today's osctl), or, with legacy, the settings themselves as
// an osctl before journal version 2 stored them.
func crashedJournal(t *testing.T, w *rollouttest.Workload, gates rollout.GateConfig, legacy map[string]any) {
	t.Helper()
	ctx := context.Background()
	hpas := w.K.Clients.Clientset.AutoscalingV2().HorizontalPodAutoscalers(w.NS)
	h, err := hpas.Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	p := plan1(gates)
	j := &rollout.Journal{Version: rollout.JournalVersion, ID: "c0ffee000001", Phase: rollout.PhaseRunning, Deployment: "web",
		Original: rollout.OriginalOf(h), Expected: rollout.Pinned(1), Plan: p, Step: 1, Holder: "admin@crashed-host pid 7 (dead00)",
		StartedAt: now, UpdatedAt: now, History: []rollout.Entry{{Time: now, Step: 1, Replicas: "1", Event: "step"}}}
	val, err := j.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if legacy != nil {
		var m map[string]any
		_ = json.Unmarshal([]byte(val), &m)
		m["version"] = 1
		m["plan"].(map[string]any)["gates"] = legacy
		b, _ := json.Marshal(m)
		val = string(b)
	}
	patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]string{rollout.AnnotationJournal: val}}})
	if _, err := hpas.Patch(ctx, "web", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}

func plan1(gates rollout.GateConfig) rollout.Plan {
	return rollout.Plan{Steps: []int32{1}, Hold: metav1.Duration{Duration: time.Second}, StepTimeout: metav1.Duration{Duration: time.Minute},
		GateInterval: metav1.Duration{Duration: 300 * time.Millisecond}, RollbackTo: rollout.RollbackOriginal, GateRecord: gates.Record()}
}

// TestResumeRunsOnlyTheGatesGiven: a crashed rollout's journal whose gates are a command (that
// appends to a marker file) and a PromQL gate on a Prometheus behind a counting proxy, with a
// bearer file. Resumed without the gates, or with other ones, it refuses: the command never runs
// and no request reaches the proxy. With the same gates it completes, the command runs and every
// request carries the token. The same holds for a journal written by an older osctl, which stored
// the settings themselves: they are compared with the flags, never run; and where it kept one
// masked, --accept-gates is needed.
func TestResumeRunsOnlyTheGatesGiven(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	prom := promApp(t)
	for _, legacy := range []bool{false, true} {
		name := map[bool]string{false: "journal of today", true: "journal of an older osctl"}[legacy]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := rollouttest.New(t, k, rollouttest.Options{})
			dir := t.TempDir()
			marker, token := filepath.Join(dir, "marker"), filepath.Join(dir, "token")
			if err := os.WriteFile(token, []byte("prom-s3cr3t-token\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			proxy, other := newCountingProxy(t, prom.URL(), "prom-s3cr3t-token"), newCountingProxy(t, prom.URL(), "prom-s3cr3t-token")
			gc := rollout.GateConfig{Cmd: "echo ran >> " + marker,
				Prom: rollout.PromGates{Queries: []string{errorRateOK}, URL: proxy.URL, BearerFile: token}}
			flags := []string{"--gates", "", "--gate-cmd", gc.Cmd, "--prometheus", proxy.URL, "--gate-prom", errorRateOK, "--prometheus-bearer-file", token}
			nothingRan := func(what string) {
				t.Helper()
				if _, err := os.Stat(marker); !os.IsNotExist(err) {
					t.Fatalf("%s: the gate command ran (marker: %v)", what, err)
				}
				if n, m := proxy.requests.Load(), other.requests.Load(); n+m != 0 {
					t.Fatalf("%s: %d requests reached the Prometheus proxies", what, n+m)
				}
				if j := journal(t, w); j.Phase != rollout.PhaseRunning || j.Holder != "admin@crashed-host pid 7 (dead00)" {
					t.Fatalf("%s: the journal changed: %s by %s", what, j.Phase, j.Holder)
				}
			}
			resume := func(args ...string) (int, string, string) {
				return runInProcess(t, context.Background(), k.Kubeconfig, w.NS, nil, append([]string{"resume", "--hpa", "web", "--yes"}, args...)...)
			}
			if legacy {
				// An older osctl that kept the command masked: the same flags are not enough.
				crashedJournal(t, w, gc, map[string]any{"cmd": "echo ran --token=xxxxx >> " + marker, "cmdMasked": true,
					"prom": map[string]any{"queries": []string{errorRateOK}, "url": proxy.URL, "bearerFile": token}})
				code, out, errOut := resume(flags...)
				if code != 2 || !strings.Contains(errOut, "written by an older osctl, which kept the cmd gate's credential masked") || !strings.Contains(errOut, "--accept-gates") {
					t.Fatalf("masked legacy gates without --accept-gates: exit %d\n%s\n%s", code, out, errOut)
				}
				nothingRan("masked legacy gates without --accept-gates")
				crashedJournal(t, w, gc, map[string]any{"nfsPath": "/mnt/openstudio", "cmd": gc.Cmd,
					"prom": map[string]any{"queries": []string{errorRateOK}, "url": proxy.URL, "bearerFile": token}})
			} else {
				crashedJournal(t, w, gc, nil)
				code, _, errOut := resume(append(flags, "--accept-gates")...)
				if code != 2 || !strings.Contains(errOut, "--accept-gates is only for a journal written by an older osctl") {
					t.Fatalf("--accept-gates on today's journal: exit %d\n%s", code, errOut)
				}
			}
			if _, _, ann := w.HPA(t); legacy != strings.Contains(ann[rollout.AnnotationJournal], marker) {
				t.Fatalf("the journal as written: %s", ann[rollout.AnnotationJournal])
			}
			for _, tc := range []struct {
				what string
				args []string
				want string
			}{
				{"no gate flags", nil, "(it started with [cmd, prom-1]; the settings given make [nfs, locks, pods])"},
				{"no gates", []string{"--gates", ""}, "(it started with [cmd, prom-1]; the settings given make [])"},
				{"another command", []string{"--gates", "", "--gate-cmd", "echo other >> " + marker, "--prometheus", proxy.URL, "--gate-prom", errorRateOK, "--prometheus-bearer-file", token},
					"(the same gates [cmd, prom-1], with other settings)"},
				{"another Prometheus", []string{"--gates", "", "--gate-cmd", gc.Cmd, "--prometheus", other.URL, "--gate-prom", errorRateOK, "--prometheus-bearer-file", token},
					"(the same gates [cmd, prom-1], with other settings)"},
				{"another bearer file", []string{"--gates", "", "--gate-cmd", gc.Cmd, "--prometheus", proxy.URL, "--gate-prom", errorRateOK, "--prometheus-bearer-file", "/etc/hostname"},
					"(the same gates [cmd, prom-1], with other settings)"},
			} {
				code, out, errOut := resume(tc.args...)
				if code != 2 || !strings.Contains(errOut, "the gates given differ from the ones the rollout started with "+tc.want+": pass the same gate flags as the original run") ||
					strings.Contains(errOut, marker) || strings.Contains(errOut, "s3cr3t") {
					t.Fatalf("%s: exit %d, want 2 naming %q\n%s\n%s", tc.what, code, tc.want, out, errOut)
				}
				nothingRan(tc.what)
			}

			code, out, errOut := resume(flags...)
			if code != 0 {
				t.Fatalf("resume with the same gates: exit %d\n%s\n%s", code, out, errOut)
			}
			mustContain(t, "resume", out+errOut, "gates [cmd, prom-1] as given", "rollout completed: HPA range 1-1", "cmd PASS", "prom-1 PASS")
			if b, err := os.ReadFile(marker); err != nil || !strings.HasPrefix(string(b), "ran\n") {
				t.Fatalf("the gate command did not run: %q %v", b, err)
			}
			if n, tok := proxy.requests.Load(), proxy.withToken.Load(); n == 0 || tok != n || other.requests.Load() != 0 {
				t.Fatalf("Prometheus proxy: %d requests, %d with the token; the other: %d", n, tok, other.requests.Load())
			}
			j := journal(t, w)
			_, _, ann := w.HPA(t)
			if j.Phase != rollout.PhaseCompleted || j.Version != rollout.JournalVersion || j.Plan.GateRecord.Legacy() || j.Plan.GateRecord.Digest != gc.Digest() {
				t.Fatalf("journal after resume: %s v%d %+v", j.Phase, j.Version, j.Plan.GateRecord)
			}
			for _, s := range []string{marker, proxy.URL, token, "s3cr3t"} {
				if strings.Contains(ann[rollout.AnnotationJournal], s) {
					t.Fatalf("the journal after resume keeps %q: %s", s, ann[rollout.AnnotationJournal])
				}
			}
		})
	}
}
