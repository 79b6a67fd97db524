package stress

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/stress/report"
)

// TestConcurrencySizedToTheTier: the Deployment under test (kwok pods: the Passenger settings are
// in the pod spec, read from the API) has 2 ready pods of MAX_POOL 2 + MAX_REQUESTS 3, a
// capacity of 10. --concurrency 50 says so on stderr before the load, in one line naming 50 and
// 10, and runs at 50; --concurrency auto runs at 10 (the target never sees more than 10 at once)
// and the report says where its concurrency came from. The load goes to a loopback server.
func TestConcurrencySizedToTheTier(t *testing.T) {
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	k.Apply(t, ns, testenv.WebDeployment(2, `containers:
- name: web
  image: "registry.invalid/openstudio-server:3.7.0"
  env: [{name: MAX_POOL, value: "2"}, {name: MAX_REQUESTS, value: "3"}]
`))
	k.ReadyPods(t, ns, "app=web", 2)
	var inFlight, peak atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(20 * time.Millisecond)
	}))
	defer srv.Close()
	run := func(concurrency string) (testenv.OsctlRun, report.Report) {
		r := runOsctl(t, "stress", "--profile", "http", "--target", srv.URL, "--requests", "100", "--concurrency", concurrency,
			"--kubeconfig", k.Kubeconfig, "-n", ns, "--deployment", "web", "-o", "json")
		var rep report.Report
		r.Decode(t, &rep)
		if r.Code != 0 {
			t.Fatalf("--concurrency %s: exit %d\n%s", concurrency, r.Code, r.Stderr)
		}
		return r, rep
	}

	r, rep := run("50")
	var warn []string
	for _, l := range strings.Split(r.Stderr, "\n") {
		if strings.Contains(l, "beyond the capacity") {
			warn = append(warn, l)
		}
	}
	want := "notice: --concurrency 50 is beyond the capacity of Deployment " + ns + "/web, 10 concurrent requests (2 ready pods x (MAX_POOL 2 + MAX_REQUESTS 3) = 10)"
	if len(warn) != 1 || !strings.HasPrefix(warn[0], want) {
		t.Errorf("stderr's warning lines %q, want one starting %q\n%s", warn, want, r.Stderr)
	}
	if load := strings.Index(r.Stderr, "at concurrency 50"); load < 0 || strings.Index(r.Stderr, want) > load {
		t.Errorf("the warning should come before the load's line:\n%s", r.Stderr)
	}
	if rep.Concurrency != 50 || rep.ConcurrencySource != "" || rep.TierCapacity != 10 {
		t.Errorf("report: concurrency %d source %q tier capacity %d, want 50, none, 10", rep.Concurrency, rep.ConcurrencySource, rep.TierCapacity)
	}

	peak.Store(0)
	r, rep = run("auto")
	if rep.Concurrency != 10 || rep.ConcurrencySource != "auto" || rep.TierCapacity != 10 || rep.PeakInFlight > 10 || peak.Load() > 10 {
		t.Errorf("auto: concurrency %d source %q capacity %d, peak in flight %d (server saw %d); want 10, auto, 10, at most 10",
			rep.Concurrency, rep.ConcurrencySource, rep.TierCapacity, rep.PeakInFlight, peak.Load())
	}
	if !strings.Contains(r.Stderr, "notice: --concurrency auto: 10, the capacity of Deployment "+ns+"/web") || strings.Contains(r.Stderr, "beyond the capacity") {
		t.Errorf("auto's stderr:\n%s", r.Stderr)
	}
	out := runOsctl(t, "stress", "--profile", "http", "--target", srv.URL, "--requests", "20", "--concurrency", "auto",
		"--kubeconfig", k.Kubeconfig, "-n", ns, "--deployment", "web")
	if !strings.Contains(out.Stdout, "concurrency 10 (auto: the tier's capacity)") {
		t.Errorf("the summary should say the concurrency is the tier's capacity:\n%s", out.Stdout)
	}
}
