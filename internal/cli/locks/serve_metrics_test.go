package locks_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
)

// served is a running `osctl locks serve-metrics` (the real binary).
type served struct {
	addr   string
	cmd    *exec.Cmd
	stderr *testenv.LockedBuffer
	done   chan struct{}
	err    error
}

var servingRE = regexp.MustCompile(` on http://([^/\s]+)/metrics `)

func serveMetrics(t *testing.T, args ...string) *served {
	t.Helper()
	s := &served{stderr: &testenv.LockedBuffer{}, done: make(chan struct{})}
	s.cmd = exec.Command(testenv.OsctlBinary(t), append([]string{"locks", "serve-metrics", "--listen", "127.0.0.1:0"}, args...)...)
	s.cmd.Stdout, s.cmd.Stderr = io.Discard, s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.err = s.cmd.Wait(); close(s.done) }()
	t.Cleanup(func() {
		_ = s.cmd.Process.Kill() // by its pid: the process this test started
		<-s.done
	})
	testenv.WaitFor(t, 30*time.Second, "serve-metrics to listen", func() (bool, error) {
		select {
		case <-s.done:
			return false, fmt.Errorf("serve-metrics exited: %v\n%s", s.err, s.stderr.String())
		default:
		}
		m := servingRE.FindStringSubmatch(s.stderr.String())
		if m != nil {
			s.addr = m[1]
		}
		return m != nil, nil
	})
	return s
}

// scrape GETs /metrics as Prometheus's text format.
func (s *served) scrape(t *testing.T) string {
	t.Helper()
	return s.scrapeWithin(t, "")
}

// scrapeWithin is scrape with X-Prometheus-Scrape-Timeout-Seconds set to timeout (none when "").
func (s *served) scrapeWithin(t *testing.T, timeout string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, "http://"+s.addr+"/metrics", nil)
	if err != nil {
		t.Fatal(err)
	}
	if timeout != "" {
		req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", timeout)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET /metrics: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d %v\n%s", resp.StatusCode, err, b)
	}
	return string(b)
}

// stop interrupts the process as Ctrl-C does and returns its exit code.
func (s *served) stop(t *testing.T) int {
	t.Helper()
	_ = s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("serve-metrics did not stop on SIGINT:\n%s", s.stderr.String())
	}
	return s.cmd.ProcessState.ExitCode()
}

// alertRules writes the alert rules of docs/migration/incident-locks.md (its ```yaml block with
// groups:) to a file.
func alertRules(t *testing.T) string {
	t.Helper()
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "migration", "incident-locks.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rules string
	for _, part := range strings.Split(string(doc), "```yaml\n")[1:] {
		block, _, _ := strings.Cut(part, "\n```")
		if strings.HasPrefix(block, "groups:") {
			rules = block + "\n"
		}
	}
	if rules == "" {
		t.Fatal("docs/migration/incident-locks.md has no ```yaml block of alert rules (groups:)")
	}
	p := filepath.Join(t.TempDir(), "osctl-locks.rules.yml")
	if err := os.WriteFile(p, []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func promtool(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(testenv.PromtoolPath(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestAlertRules: the shipped rules load (promtool check rules) and fire when they should
// (promtool test rules: a stale lock older than five minutes, debris for two, a master down
// for one).
func TestAlertRules(t *testing.T) {
	t.Parallel()
	rules := alertRules(t)
	if out := promtool(t, "", "check", "rules", rules); !strings.Contains(out, "SUCCESS: 4 rules found") {
		t.Fatalf("promtool check rules:\n%s", out)
	}
	spec, err := os.ReadFile("testdata/alert_rules_test.yml")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(filepath.Dir(rules), "test.yml")
	if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(spec), "RULES_FILE", filepath.Base(rules))), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := promtool(t, "", "test", "rules", p); !strings.Contains(out, "SUCCESS") {
		t.Fatalf("promtool test rules:\n%s", out)
	}
}

func vectorSum(v model.Vector) float64 {
	s := 0.0
	for _, x := range v {
		s += float64(x.Value)
	}
	return s
}

func alertState(t *testing.T, p *testenv.Prometheus, name string) v1.AlertState {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := p.API.Alerts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range res.Alerts {
		if string(a.Labels["alertname"]) == name {
			return a.State
		}
	}
	return ""
}

// TestServeMetricsScrapedByPrometheus: serve-metrics over three real masters, scraped by a real
// Prometheus that evaluates the shipped alert rules. A planted stale lock and minority debris
// show in the query API and raise their alerts; a master that stops is up 0 while the endpoint
// keeps answering; the exposition passes promtool check metrics.
func TestServeMetricsScrapedByPrometheus(t *testing.T) {
	t.Parallel()
	rs := testenv.StartRedisMasters(t, 3)
	ctx := context.Background()
	stale, debris := lock.Key("a1", "analysis_zip"), lock.Key("b2", "analysis_zip")
	for _, r := range rs {
		if err := r.Client().Set(ctx, stale, "osctl:v1:web-0:7:abc", 0).Err(); err != nil { // no TTL
			t.Fatal(err)
		}
	}
	if err := rs[2].Client().Set(ctx, debris, "8d6f4f0c-2f7a-4a59-9c43-5a3bd1c7e0aa", 10*time.Minute).Err(); err != nil { // 1 of 3
		t.Fatal(err)
	}
	var args []string
	for _, r := range rs {
		args = append(args, "--redis", r.URL())
	}
	s := serveMetrics(t, append(args, "--min-interval", "0", "--retry-window", "200ms")...)
	prom := testenv.StartPrometheus(t, testenv.PromOptions{Jobs: []testenv.PromJob{{Name: "osctl-locks", Targets: []string{s.addr}}},
		RuleFiles: []string{alertRules(t)}})

	prom.WaitQuery(t, 60*time.Second, `osctl_locks{verdict="stale"}`, func(v model.Vector) bool { return vectorSum(v) == 2 })
	prom.WaitQuery(t, 30*time.Second, "osctl_lock_minority_debris", func(v model.Vector) bool { return len(v) == 1 && v[0].Value == 1 })
	v := prom.Query(t, `osctl_locks{verdict="stale",flavour="osctl"} == 1 or osctl_locks{verdict="stale",flavour="redlock-rb"} == 1`)
	if len(v) != 2 {
		t.Fatalf("stale locks by flavour: %v", v)
	}
	v = prom.Query(t, "osctl_lock_stale_age_seconds")
	if len(v) != 1 || v[0].Metric["pattern"] != "redlock:*:analysis_zip" || v[0].Metric["job"] != "osctl-locks" {
		t.Fatalf("stale ages: %v", v)
	}
	v = prom.Query(t, "osctl_redis_up == 1")
	if len(v) != 3 {
		t.Fatalf("masters up: %v", v)
	}
	for _, x := range v {
		if m := string(x.Metric["master"]); !strings.HasPrefix(m, "127.0.0.1:") || strings.Contains(m, "redis://") {
			t.Fatalf("master label %q is not host:port", m)
		}
	}
	testenv.WaitFor(t, 30*time.Second, "the debris alert to be pending", func() (bool, error) {
		st := alertState(t, prom, "OsctlLockMinorityDebris")
		return st == v1.AlertStatePending || st == v1.AlertStateFiring, nil
	})
	out := promtool(t, s.scrape(t), "check", "metrics")
	if strings.TrimSpace(out) != "" {
		t.Fatalf("promtool check metrics:\n%s", out)
	}

	// A master stops: up 0 for it, the others still read, the endpoint still answers.
	down := rs[1].Addr
	rs[1].Kill()
	prom.WaitQuery(t, 30*time.Second, fmt.Sprintf(`osctl_redis_up{master=%q}`, down), func(v model.Vector) bool { return len(v) == 1 && v[0].Value == 0 })
	if v := prom.Query(t, "osctl_redis_up == 1"); len(v) != 2 {
		t.Fatalf("masters up after one stopped: %v", v)
	}
	if text := s.scrape(t); !strings.Contains(text, fmt.Sprintf(`osctl_redis_up{master=%q,node=%q} 0`, down, down)) || !strings.Contains(text, "osctl_lock_scan_success 1") {
		t.Fatalf("scrape after a master stopped:\n%s", text)
	}
	testenv.WaitFor(t, 30*time.Second, "the master-down alert to be pending", func() (bool, error) {
		st := alertState(t, prom, "OsctlRedisMasterDown")
		return st == v1.AlertStatePending || st == v1.AlertStateFiring, nil
	})
	ctx2, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	rules, err := prom.API.Rules(ctx2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			if a, ok := r.(v1.AlertingRule); ok && a.Health != v1.RuleHealthGood {
				t.Errorf("rule %s: health %s %s", a.Name, a.Health, a.LastError)
			}
		}
	}
	if code := s.stop(t); code != 0 {
		t.Fatalf("exit %d after SIGINT:\n%s", code, s.stderr.String())
	}
}

// TestServeMetricsCoalescesScrapes: 20 concurrent scrapes cause one scan of the masters (one
// XLEN of the audit stream on each, one osctl_lock_scans_total), with the default
// --min-interval and a scan held up by a minority key's second read.
func TestServeMetricsCoalescesScrapes(t *testing.T) {
	t.Parallel()
	rs := testenv.StartRedisMasters(t, 3)
	ctx := context.Background()
	if err := rs[0].Client().Set(ctx, lock.Key("c3", "analysis_zip"), "v", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, r := range rs {
		args = append(args, "--redis", r.URL())
		if err := r.Client().ConfigResetStat(ctx).Err(); err != nil {
			t.Fatal(err)
		}
	}
	s := serveMetrics(t, append(args, "--retry-window", "1s")...)
	const n = 20
	bodies := make([]string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			resp, err := http.Get("http://" + s.addr + "/metrics")
			if err != nil {
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			bodies[i] = string(b)
		}()
	}
	close(start)
	wg.Wait()
	for i, b := range bodies {
		if !strings.Contains(b, "\nosctl_lock_scans_total 1\n") || !strings.Contains(b, "osctl_lock_minority_debris 1") {
			t.Fatalf("scrape %d:\n%s", i, b)
		}
	}
	for _, r := range rs {
		info, err := r.Client().Info(ctx, "commandstats").Result()
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`cmdstat_xlen:calls=(\d+)`).FindStringSubmatch(info)
		if m == nil || m[1] != "1" {
			t.Fatalf("master %s: XLEN calls %v, want 1 (one scan):\n%s", r.Addr, m, info)
		}
	}
}

// TestServeMetricsMasterDownAtStart: a master that does not answer when serve-metrics starts
// does not stop it: it answers with up 0 and no lock counts, and exits 0 on Ctrl-C.
func TestServeMetricsMasterDownAtStart(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedis(t, testenv.WithPassword("hunter2"))
	addr := r.Addr
	r.Kill()
	s := serveMetrics(t, "--redis", r.URL(), "--min-interval", "0")
	text := s.scrape(t)
	for _, want := range []string{fmt.Sprintf(`osctl_redis_up{master=%q,node=%q} 0`, addr, addr), "osctl_lock_scan_success 0", "osctl_lock_scans_total 1"} {
		if !strings.Contains(text, want) {
			t.Fatalf("scrape lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "osctl_locks{") || strings.Contains(text, "hunter2") {
		t.Fatalf("lock counts without a scan, or the password:\n%s", text)
	}
	r.Restart()
	testenv.WaitFor(t, 30*time.Second, "the master to be up again", func() (bool, error) {
		return strings.Contains(s.scrape(t), fmt.Sprintf(`osctl_redis_up{master=%q,node=%q} 1`, addr, addr)), nil
	})
	if code := s.stop(t); code != 0 || strings.Contains(s.stderr.String(), "hunter2") {
		t.Fatalf("exit %d after SIGINT:\n%s", code, s.stderr.String())
	}
}

// TestServeMetricsExitCodes: bad flags and an address that cannot be bound are exit 2 (the
// messages are in testdata/serve_metrics.txtar).
func TestServeMetricsExitCodes(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedis(t)
	for _, args := range [][]string{
		{"--listen", "nowhere"},
		{"--top", "-1"},
		{"--listen", r.Addr}, // taken by redis-server
	} {
		cmd := exec.Command(testenv.OsctlBinary(t), append([]string{"locks", "serve-metrics", "--redis", r.URL()}, args...)...)
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 2 {
			t.Errorf("%v: exit %d (%v), want 2\n%s", args, code, err, out)
		}
	}
}

// TestServeMetricsAnswersWithinTheScrapeTimeout: with its master stopped (SIGSTOP), a scrape that
// says its timeout (X-Prometheus-Scrape-Timeout-Seconds, as Prometheus sends it) is answered in
// time with osctl_lock_scan_success 0 and no scan counted yet, rather than failing; once the
// master runs again the next scrape has the scan.
func TestServeMetricsAnswersWithinTheScrapeTimeout(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedis(t)
	pid := r.Pid()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	s := serveMetrics(t, "--redis", r.URL(), "--min-interval", "0")
	scrape := func(timeout string) string { return s.scrapeWithin(t, timeout) }
	text := scrape("0.5")
	for _, want := range []string{"\nosctl_lock_scan_success 0\n", "\nosctl_lock_scans_total 0\n"} {
		if !strings.Contains(text, want) {
			t.Fatalf("a scrape with a 0.5 s timeout during a stalled scan lacks %q:\n%s", strings.TrimSpace(want), text)
		}
	}
	if strings.Contains(text, "osctl_locks{") {
		t.Fatalf("lock counts without a finished scan:\n%s", text)
	}
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 30*time.Second, "a finished scan once the master runs", func() bool {
		return strings.Contains(scrape("10"), "\nosctl_lock_scan_success 1\n")
	})
}
