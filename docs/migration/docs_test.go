// Package migration_test runs every command of the migration guides, so that the documents
// cannot drift from the tool.
//
// Every ```sh block of every docs/migration/*.md runs with `bash -euo pipefail`, with the real
// osctl binary first on PATH. The HTML comment on the line before the fence says where:
//
//	<!-- test: static -->     from the repository root, reading only files from examples/
//	<!-- test: sandbox -->    against a sandbox this test starts (OSCTL_REDIS, WEB_URL, STATE_DIR)
//	<!-- test: pods -->       against the sandbox's web tier in real pods (realnode.StartWebTier: a
//	                          real kubelet and containerd; a Deployment web of 2 pods running
//	                          osctl's image with locking, Service web, Redis in a pod, one hostPath
//	                          volume): KUBECONFIG, REHEARSAL_NS (its namespace), REHEARSAL_STATE_DIR
//	                          (the volume's directory on this machine), kubectl on PATH
//	<!-- test: cluster -->    against a real control plane (testenv.SharedKube): a namespace NS with
//	                          the chart's web Deployment, HPA, PVC, PV and StorageClass, pods whose
//	                          mountinfo follows their PV's mountOptions, and a real redis-server
//	                          (OSCTL_REDIS); KUBECONFIG and kubectl on PATH; when the document's
//	                          cluster blocks use WEB_URL, a sandbox on that Redis stands in for
//	                          the web Service (kwok pods serve no HTTP) and its state directory
//	                          for the volume mounted where osctl runs (STATE_DIR)
//
// Every block also gets small sizes for the user's own values (REQUESTS, CONCURRENCY, HOLD,
// GATE_INTERVAL, N), which the documents use as ${VAR:-default}.
//
// Every ```ruby block is marked too:
//
//	<!-- test: ruby -->         run with `ruby -I contrib/rails` (so `require 'osctl_lock'` loads
//	                            the module) against three real redis-server masters this test
//	                            starts (REDLOCK_URLS, and OSCTL_REDIS for osctl), osctl on PATH
//	<!-- test: ruby-syntax -->  only parsed (`ruby -c`): code that needs a Rails app or a gem
//	                            that is not installed here
//
// and the pages of each Redis topology run against real ones (redis_env_test.go): redis-cluster,
// redis-sentinel, redis-managed.
//
// `expect-exit N` may follow the target for commands that are meant to find a problem. A ```sh
// block without a marker fails the test. Blocks of one document run in order, in one working
// directory, so a later block can read what an earlier one wrote (a stress report).
package migration_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/proc"
)

func TestMain(m *testing.M) { os.Exit(testenv.RunMain(m)) }

// Targets a block may name.
const (
	targetStatic  = "static"
	targetSandbox = "sandbox"
	targetCluster = "cluster"
	targetPods    = "pods"        // the web tier in real pods (a real node)
	targetRuby    = "ruby"        // a ```ruby block run against real Redis masters
	targetSyntax  = "ruby-syntax" // a ```ruby block that is only parsed
)

// rubyTarget reports whether target is one for ```ruby blocks.
func rubyTarget(target string) bool { return target == targetRuby || target == targetSyntax }

// blockTimeout bounds one block; a rollout with the test's short holds takes well under it.
const blockTimeout = 3 * time.Minute

// block is one fenced ```sh block of a document.
type block struct {
	file       string // base name of the document
	line       int    // line of the opening fence
	target     string // static | sandbox | cluster
	expectExit int
	// attempts is how many runs the block gets to exit as expected (default 1): for a block
	// whose outcome is probabilistic at the test's small sizes, as a race caught in 300 requests.
	attempts int
	code     string
}

func (b block) name() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

// doc is one document and its blocks.
type doc struct {
	file   string
	blocks []block
}

func (d doc) has(target string) bool {
	for _, b := range d.blocks {
		if b.target == target {
			return true
		}
	}
	return false
}

func (d doc) mentions(target, s string) bool {
	for _, b := range d.blocks {
		if b.target == target && strings.Contains(b.code, s) {
			return true
		}
	}
	return false
}

var (
	fenceRe  = regexp.MustCompile("^```\\s*([A-Za-z0-9_+-]*)\\s*$")
	markerRe = regexp.MustCompile(`^<!--\s*test:\s*(.*?)\s*-->\s*$`)
	linkRe   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
)

// parseDoc extracts the ```sh blocks of one document; problems are returned, not fatal, so that
// the marker test can list them all.
func parseDoc(path string) (doc, []string) {
	d := doc{file: filepath.Base(path)}
	var problems []string
	f, err := os.Open(path)
	if err != nil {
		return d, []string{err.Error()}
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var (
		prev    string
		inFence bool
		cur     *block
		body    strings.Builder
		n       int
	)
	for sc.Scan() {
		n++
		line := sc.Text()
		m := fenceRe.FindStringSubmatch(strings.TrimRight(line, " "))
		switch {
		case !inFence && m != nil:
			inFence = true
			lang := m[1]
			marker := markerRe.FindStringSubmatch(prev)
			switch {
			case lang == "sh" || lang == "ruby":
				cur = nil
				if marker == nil {
					if lang == "sh" {
						problems = append(problems, fmt.Sprintf("%s:%d: ```sh block without a <!-- test: static|sandbox|cluster [expect-exit N] --> marker on the line before (use ```text for what cannot run here)", d.file, n))
					} else {
						problems = append(problems, fmt.Sprintf("%s:%d: ```ruby block without a <!-- test: ruby|ruby-syntax [expect-exit N] --> marker on the line before", d.file, n))
					}
					break
				}
				b, err := parseMarker(marker[1])
				if err != nil {
					problems = append(problems, fmt.Sprintf("%s:%d: %v", d.file, n-1, err))
					break
				}
				if rubyTarget(b.target) != (lang == "ruby") {
					problems = append(problems, fmt.Sprintf("%s:%d: test target %q is not one for a ```%s block (sh: static, sandbox, cluster, pods; ruby: ruby, ruby-syntax)", d.file, n-1, b.target, lang))
					break
				}
				b.file, b.line = d.file, n
				cur = &b
				body.Reset()
			case lang == "bash" || lang == "shell" || lang == "zsh":
				problems = append(problems, fmt.Sprintf("%s:%d: ```%s block: write runnable commands as ```sh with a test marker, others as ```text or ```console", d.file, n, lang))
			case marker != nil:
				problems = append(problems, fmt.Sprintf("%s:%d: test marker before a ```%s block, which is never run", d.file, n-1, lang))
			}
		case inFence && m != nil && m[1] == "":
			inFence = false
			if cur != nil {
				cur.code = body.String()
				d.blocks = append(d.blocks, *cur)
				cur = nil
			}
		case inFence && cur != nil:
			body.WriteString(line)
			body.WriteByte('\n')
		}
		prev = line
	}
	if err := sc.Err(); err != nil {
		problems = append(problems, fmt.Sprintf("%s: %v", d.file, err))
	}
	if inFence {
		problems = append(problems, fmt.Sprintf("%s: a code fence is not closed", d.file))
	}
	return d, problems
}

func parseMarker(s string) (block, error) {
	var b block
	f := strings.Fields(s)
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case targetStatic, targetSandbox, targetCluster, targetPods, targetRuby, targetSyntax, targetRedisCluster, targetRedisSentinel, targetRedisManaged:
			if b.target != "" {
				return b, fmt.Errorf("test marker %q names two targets", s)
			}
			b.target = f[i]
		case "expect-exit":
			if i+1 >= len(f) {
				return b, fmt.Errorf("test marker %q: expect-exit needs a number", s)
			}
			n, err := strconv.Atoi(f[i+1])
			if err != nil || n < 0 || n > 255 {
				return b, fmt.Errorf("test marker %q: expect-exit %q is not an exit code", s, f[i+1])
			}
			b.expectExit = n
			i++
		case "attempts":
			n := 0
			if i+1 < len(f) {
				n, _ = strconv.Atoi(f[i+1])
			}
			if n < 1 || n > 5 {
				return b, fmt.Errorf("test marker %q: attempts needs a number from 1 to 5", s)
			}
			b.attempts = n
			i++
		default:
			return b, fmt.Errorf("test marker %q: unknown word %q (want static, sandbox, cluster, pods, redis-cluster, redis-sentinel, redis-managed, ruby or ruby-syntax, and optionally expect-exit N and attempts N)", s, f[i])
		}
	}
	if b.target == "" {
		return b, fmt.Errorf("test marker %q names no target (static, sandbox, cluster, ruby or ruby-syntax)", s)
	}
	return b, nil
}

func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("no *.md in docs/migration")
	}
	return files
}

// TestMarkersAndLinks fails on a ```sh block without a valid marker, and on a relative link to a
// file that does not exist.
func TestMarkersAndLinks(t *testing.T) {
	var problems []string
	for _, f := range docFiles(t) {
		_, p := parseDoc(f)
		problems = append(problems, p...)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range linkRe.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				target, _, _ = strings.Cut(target, "#")
				if _, err := os.Stat(filepath.Join(".", target)); err != nil {
					problems = append(problems, fmt.Sprintf("%s:%d: link to %s: %v", f, i+1, m[1], err))
				}
			}
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// parseSource parses src as the document name in a directory of its own.
func parseSource(t *testing.T, name, src string) (doc, []string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return parseDoc(p)
}

// wantProblems checks that there are as many problems as want and each starts with its want.
func wantProblems(t *testing.T, problems, want []string) {
	t.Helper()
	if len(problems) != len(want) {
		t.Fatalf("problems %q, want %d", problems, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(problems[i], w) {
			t.Errorf("problem %d = %q, want prefix %q", i, problems[i], w)
		}
	}
}

// TestMarkerParsing checks the marker grammar on examples, including the ones that must fail.
func TestMarkerParsing(t *testing.T) {
	src := "# x\n<!-- test: cluster expect-exit 1 -->\n```sh\nosctl version\n```\n\n```sh\necho unmarked\n```\n" +
		"<!-- test: nowhere -->\n```sh\necho bad\n```\n<!-- test: static -->\n```text\nnot run\n```\n```bash\necho\n```\n"
	d, problems := parseSource(t, "x.md", src)
	if len(d.blocks) != 1 || d.blocks[0].target != targetCluster || d.blocks[0].expectExit != 1 || d.blocks[0].code != "osctl version\n" || d.blocks[0].line != 3 {
		t.Fatalf("blocks %+v", d.blocks)
	}
	want := []string{"x.md:7: ```sh block without", "x.md:10: test marker", "x.md:14: test marker before a ```text", "x.md:18: ```bash block"}
	wantProblems(t, problems, want)
}

// TestAttemptsMarker: attempts N gives a probabilistic block N runs, 1 to 5.
func TestAttemptsMarker(t *testing.T) {
	b, err := parseMarker("sandbox expect-exit 1 attempts 3")
	if err != nil || b.attempts != 3 || b.expectExit != 1 || b.target != targetSandbox {
		t.Fatalf("parsed %+v, %v", b, err)
	}
	for _, bad := range []string{"sandbox attempts", "sandbox attempts 0", "sandbox attempts 9", "sandbox attempts x"} {
		if _, err := parseMarker(bad); err == nil || !strings.Contains(err.Error(), "attempts needs a number from 1 to 5") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestRubyMarkerParsing checks the ```ruby markers: ruby and ruby-syntax, each only before a
// ```ruby block, and a ```ruby block never unmarked.
func TestRubyMarkerParsing(t *testing.T) {
	src := "<!-- test: ruby -->\n```ruby\nputs 1\n```\n```ruby\nputs 2\n```\n<!-- test: static -->\n```ruby\nx\n```\n" +
		"<!-- test: ruby -->\n```sh\necho\n```\n<!-- test: ruby-syntax expect-exit 1 -->\n```ruby\nfoo(\n```\n"
	d, problems := parseSource(t, "r.md", src)
	if len(d.blocks) != 2 || d.blocks[0].target != targetRuby || d.blocks[0].code != "puts 1\n" ||
		d.blocks[1].target != targetSyntax || d.blocks[1].expectExit != 1 || d.blocks[1].line != 17 {
		t.Fatalf("blocks %+v", d.blocks)
	}
	want := []string{"r.md:5: ```ruby block without", "r.md:8: test target \"static\" is not one for a ```ruby", "r.md:12: test target \"ruby\" is not one for a ```sh"}
	wantProblems(t, problems, want)
}

// TestDocs runs every block of every document, each document in its own environment.
func TestDocs(t *testing.T) {
	bin := testenv.OsctlBinary(t)
	// The binary must be found as "osctl": put it alone in a directory.
	binDir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(binDir, "osctl")); err != nil {
		t.Fatal(err)
	}
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range docFiles(t) {
		d, problems := parseDoc(f)
		if len(problems) > 0 {
			continue // TestMarkersAndLinks reports them
		}
		if len(d.blocks) == 0 {
			continue
		}
		t.Run(strings.TrimSuffix(d.file, ".md"), func(t *testing.T) {
			t.Parallel()
			env := newDocEnv(t, d, binDir, root)
			for _, b := range d.blocks {
				if !runBlock(t, env, b) {
					// Later blocks build on earlier ones: stop this document at its first failure.
					return
				}
			}
		})
	}
}

// docEnv is the world one document's blocks run in.
type docEnv struct {
	root    string // repository root (static blocks run here)
	work    string // working directory of sandbox and cluster blocks
	base    []string
	sandbox []string
	cluster []string
	pods    []string
	ruby    []string
	redis   map[string][]string // per Redis topology target
}

func newDocEnv(t *testing.T, d doc, binDir, root string) *docEnv {
	t.Helper()
	e := &docEnv{root: root, work: t.TempDir()}
	home := t.TempDir()
	e.base = []string{
		"PATH=" + binDir + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=" + home, "LANG=C.UTF-8", "TMPDIR=" + os.TempDir(),
		// The user's own sizes, shrunk so that the whole document test stays short.
		"REQUESTS=300", "CONCURRENCY=300", "HOLD=2s", "GATE_INTERVAL=1s", "N=3",
		// No KUBECONFIG and an empty HOME: no block reaches a cluster it was not given.
	}
	if d.has(targetSandbox) {
		sb := sandboxenv.Start(t, "--replicas", "2", "--locking", "redlock")
		plantIncident(t, sb.Redis[0], sb.StateDir)
		e.sandbox = []string{
			"OSCTL_REDIS=" + strings.Join(sb.Redis, ","),
			"WEB_URL=" + strings.Join(sb.Replicas, ","),
			"STATE_DIR=" + sb.StateDir,
		}
	}
	if d.has(targetPods) {
		e.pods = webTierEnv(t, binDir)
	}
	e.redis = redisEnvs(t, d)
	if d.has(targetRuby) {
		requireRuby(t)
		ms := strings.Join(testenv.URLs(testenv.StartRedisMasters(t, 3)), ",")
		e.ruby = []string{"REDLOCK_URLS=" + ms, "OSCTL_REDIS=" + ms}
	}
	if d.has(targetCluster) {
		k := testenv.SharedKube(t)
		rd := testenv.StartRedis(t)
		ns := newChartWorld(t, k)
		e.cluster = []string{
			"KUBECONFIG=" + k.Kubeconfig, "NS=" + ns, "OSCTL_REDIS=" + rd.URL(),
			"PATH=" + binDir + ":" + k.BinDir + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		}
		if d.mentions(targetCluster, "WEB_URL") {
			// kwok's pods serve no HTTP: a sandbox on the same Redis stands in for the web
			// Service, and its state directory stands in for the NFS export mounted on the
			// machine that runs osctl (STATE_DIR). (--state-pod cannot run here: kwok never closes an
			// exec's stdin, and the pod script reads its directories from stdin until EOF.)
			sb := sandboxenv.Start(t, "--replicas", "2", "--locking", "redlock", "--redis", rd.URL())
			e.cluster = append(e.cluster, "WEB_URL="+strings.Join(sb.Replicas, ","), "STATE_DIR="+sb.StateDir)
			forwardWebPods(t, k, ns, sb.Replicas[0])
		}
	}
	return e
}

// runBlock runs one block and reports whether it behaved as its marker says, within the
// attempts the marker gives it (each attempt's outcome is logged).
func runBlock(t *testing.T, e *docEnv, b block) bool {
	t.Helper()
	for attempt := 1; ; attempt++ {
		last := attempt >= max(b.attempts, 1)
		if ok := runOnce(t, e, b, last); ok || last {
			return ok
		}
		t.Logf("%s (%s): attempt %d of %d did not exit %d; running it again", b.name(), b.target, attempt, b.attempts, b.expectExit)
	}
}

// runOnce runs the block once. A wrong exit code is an error only when final; true means the
// block exited as expected.
func runOnce(t *testing.T, e *docEnv, b block, final bool) bool {
	t.Helper()
	name := "block.sh"
	if rubyTarget(b.target) {
		name = "block.rb"
	}
	script := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(script, []byte(b.code), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append([]string{}, e.base...)
	dir := e.work
	argv := []string{"bash", "-euo", "pipefail", script}
	switch b.target {
	case targetStatic:
		dir = e.root
	case targetSandbox:
		env = append(env, e.sandbox...)
	case targetCluster:
		env = append(env, e.cluster...)
	case targetPods:
		env = append(env, e.pods...)
	case targetRedisCluster, targetRedisSentinel, targetRedisManaged:
		env = append(env, e.redis[b.target]...)
	case targetRuby:
		env = append(env, e.ruby...)
		argv = []string{requireRuby(t), "-I", filepath.Join(e.root, "contrib", "rails"), script}
	case targetSyntax:
		argv = []string{requireRuby(t), "-c", script}
	}
	ctx, cancel := context.WithTimeout(context.Background(), blockTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	var out testenv.LockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// Its own process group, so that whatever the block left running is ended with it.
	cmd.SysProcAttr = proc.GroupAttr(syscall.SIGKILL)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// A background process the block left running (a block that failed before its own kill) holds
	// the output pipe open: stop waiting for it shortly after the shell ends, so that the group
	// is killed below and the block fails instead of hanging the test.
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	code := 0
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		code = ee.ExitCode()
	default:
		t.Errorf("%s (%s): %v after %v\n--- block ---\n%s--- output ---\n%s", b.name(), b.target, err, time.Since(start).Round(time.Millisecond), b.code, out.String())
		return false
	}
	if ctx.Err() != nil {
		t.Errorf("%s (%s): did not finish within %v\n--- output ---\n%s", b.name(), b.target, blockTimeout, out.String())
		return false
	}
	t.Logf("%s (%s): exit %d in %v\n$ %s%s", b.name(), b.target, code, time.Since(start).Round(time.Millisecond), strings.ReplaceAll(b.code, "\n", "\n$ "), out.String())
	if b.target == targetSyntax && code == 0 && strings.TrimSpace(out.String()) != "Syntax OK" {
		t.Errorf("%s (%s): ruby -c says more than Syntax OK:\n%s", b.name(), b.target, out.String())
		return false
	}
	if code != b.expectExit {
		if final {
			t.Errorf("%s (%s): exit %d, the document expects %d\n--- block ---\n%s--- output ---\n%s", b.name(), b.target, code, b.expectExit, b.code, out.String())
		}
		return false
	}
	return true
}

// requireRuby returns the ruby binary, failing in CI and skipping loudly elsewhere when it, or
// the redis gem the module needs, is missing (scripts/test-deps.sh installs both).
func requireRuby(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("ruby")
	if err == nil {
		if out, lerr := exec.Command(p, "-e", `require "redis"`).CombinedOutput(); lerr != nil {
			err = fmt.Errorf("ruby cannot load the redis gem: %v: %s", lerr, out)
		}
	}
	testenv.Require(t, err == nil, fmt.Sprintf("ruby with the redis gem for the ```ruby blocks (apt-get install -y ruby ruby-redis): %v", err))
	return p
}

// What an incident leaves behind, planted in the sandbox before a document's blocks run.
const (
	// StaleAnalysis is an analysis whose init lease was written without a TTL and whose
	// extraction died, leaving analysis_zip.lock without a receipt.
	staleAnalysis = "7c0f5a2e-3c1d-4b8e-9a51-0d6f2b7e9c11"
	// longAnalysis holds upstream's 120 s init lease: long, but it expires by itself.
	longAnalysis = "1b9d4c7e-8f2a-4e6b-b3c5-a4d2e1f0c987"
	// liveAnalysis is held by a holder that keeps renewing its Redlock key.
	liveAnalysis = "e4a7b2c9-6d1f-4a3e-8b5c-2f9e0d1c3b7a"
)

// plantIncident writes a stale lease (no TTL), a long one (120 s), a live Redlock key that a
// goroutine keeps renewing until the test ends, and a stale analysis_zip.lock three hours old.
func plantIncident(t *testing.T, redisURL, stateDir string) {
	t.Helper()
	opt, err := redis.ParseURL(redisURL)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	ctx := context.Background()
	liveKey := "redlock:" + liveAnalysis + ":analysis_zip"
	for _, err := range []error{
		c.Set(ctx, "analysis:"+staleAnalysis+":init_lock", "resque-web-5d8c7b9f4-q2m4x:41", 0).Err(),
		c.Set(ctx, "analysis:"+longAnalysis+":init_lock", "resque-web-5d8c7b9f4-x2x7q:57", 120*time.Second).Err(),
		c.Set(ctx, liveKey, "osctl:v1:web-5d8c7b9f4-x2x7q:57:9f2c1ab05e77d3a0", 10*time.Second).Err(),
	} {
		if err != nil {
			t.Fatalf("planting locks: %v", err)
		}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(2 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				_ = c.PExpire(ctx, liveKey, 10*time.Second).Err()
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done; _ = c.Close() })

	dir := filepath.Join(stateDir, "server", "analyses", staleAnalysis)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lf := filepath.Join(dir, "analysis_zip.lock")
	if err := os.WriteFile(lf, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-3 * time.Hour)
	if err := os.Chtimes(lf, old, old); err != nil {
		t.Fatal(err)
	}
}

// Mount lines a web pod's /proc/self/mountinfo shows for the shared volume.
const (
	rootMount    = "900 1 0:50 / / rw,relatime - overlay overlay rw,lowerdir=/l,upperdir=/u,workdir=/w\n"
	noacMount    = "1001 900 0:77 / /mnt/openstudio rw,relatime shared:500 - nfs4 10.96.0.20:/export/pvc-web rw,sync,vers=4.0,rsize=1048576,wsize=1048576,namlen=255,acregmin=0,acregmax=0,acdirmin=0,acdirmax=0,hard,noac,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=10.0.0.6,local_lock=none,addr=10.96.0.20\n"
	cachingMount = "1001 900 0:77 / /mnt/openstudio rw,relatime shared:500 - nfs4 10.96.0.20:/export/pvc-web rw,sync,vers=4.0,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=10.0.0.6,local_lock=none,addr=10.96.0.20\n"
)

// newChartWorld creates, in a fresh namespace, what the chart runs today: StorageClass (vers=4,
// sync: no noac), a PV provisioned from it, PVC nfs-pvc, Deployment web (one replica, maxSurge 1)
// mounting it at /mnt/openstudio, and HPA web 1-1 managed by Helm. Like a kubelet, each pod
// mounts the volume with the options its PV has when the pod starts: patching the PV changes
// only pods started afterwards.
func newChartWorld(t *testing.T, k *testenv.Kube) string {
	t.Helper()
	ns := k.NewNamespace(t)
	sc, pv := ns+"-nfs", "pvc-"+ns
	t.Cleanup(func() {
		_, _ = exec.Command(filepath.Join(k.BinDir, "kubectl"), "--kubeconfig="+k.Kubeconfig, "delete", "pv", pv, "--wait=false").CombinedOutput()
		_, _ = exec.Command(filepath.Join(k.BinDir, "kubectl"), "--kubeconfig="+k.Kubeconfig, "delete", "storageclass", sc, "--wait=false").CombinedOutput()
	})
	w := &podMounts{k: k, ns: ns, pv: pv, seen: map[string]bool{}}
	k.WatchPods(t, ns, w.onPod)

	k.Apply(t, "", fmt.Sprintf(`apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: %[1]s
  labels: {app: nfs-server-provisioner, release: osrel}
provisioner: cluster.local/osrel-nfs-server-provisioner
reclaimPolicy: Delete
mountOptions: [vers=4, sync]
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: %[2]s
  annotations: {pv.kubernetes.io/provisioned-by: cluster.local/osrel-nfs-server-provisioner}
spec:
  capacity: {storage: 1Mi}
  accessModes: [ReadWriteMany]
  persistentVolumeReclaimPolicy: Delete
  storageClassName: %[1]s
  mountOptions: [vers=4, sync]
  nfs: {server: 10.96.0.20, path: /export/pvc-web}
  claimRef: {namespace: %[3]s, name: nfs-pvc}
`, sc, pv, ns))
	k.Apply(t, ns, fmt.Sprintf(`apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: nfs-pvc}
spec:
  accessModes: [ReadWriteMany]
  storageClassName: %[1]s
  volumeName: %[2]s
  resources: {requests: {storage: 1Mi}}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app.kubernetes.io/managed-by: Helm}
  annotations: {meta.helm.sh/release-name: osrel, meta.helm.sh/release-namespace: %[3]s}
spec:
  replicas: 1
  minReadySeconds: 2
  selector: {matchLabels: {app: web, release: osrel}}
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 1, maxUnavailable: 1}
  template:
    metadata: {labels: {app: web, release: osrel}}
    spec:
      containers:
      - name: web
        image: nrel/openstudio-server:3.7.0
        ports: [{containerPort: 80}]
        env:
        - {name: REDIS_URL, value: "redis://queue:6379"}
        volumeMounts:
        - {name: nfs, mountPath: /mnt/openstudio}
      volumes:
      - name: nfs
        persistentVolumeClaim: {claimName: nfs-pvc}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web, release: osrel}
  ports: [{port: 80, targetPort: 80}]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
  labels: {app.kubernetes.io/managed-by: Helm}
  annotations: {meta.helm.sh/release-name: osrel, meta.helm.sh/release-namespace: %[3]s}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 1
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`, sc, pv, ns))
	testenv.WaitFor(t, 60*time.Second, "Deployment web with 1 available replica in "+ns, func() (bool, error) {
		d, err := k.Clients.Clientset.AppsV1().Deployments(ns).Get(context.Background(), "web", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return d.Status.AvailableReplicas == 1 && d.Status.UpdatedReplicas == 1, nil
	})
	return ns
}

// forwardWebPods makes a port-forward to port 80 of any pod of ns (the web pods, old and new:
// `stress --target-pods web`, the rollout's gate at two replicas) reach the sandbox replica at
// replica (http://HOST:PORT), through kwok's ClusterPortForward.
func forwardWebPods(t *testing.T, k *testenv.Kube, ns, replica string) {
	t.Helper()
	u, err := url.Parse(replica)
	if err != nil {
		t.Fatal(err)
	}
	name := ns + "-web"
	k.Apply(t, "", fmt.Sprintf(`apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterPortForward
metadata:
  name: %s
spec:
  selector:
    matchNamespaces: [%s]
  forwards:
  - ports: [80]
    target:
      port: %s
      address: %s
`, name, ns, u.Port(), u.Hostname()))
	t.Cleanup(func() {
		_, _ = exec.Command(filepath.Join(k.BinDir, "kubectl"), "--kubeconfig="+k.Kubeconfig, "delete", "clusterportforward", name, "--wait=false").CombinedOutput()
	})
}

// podMounts gives every new pod of the namespace the mountinfo its PV's options produce.
type podMounts struct {
	k    *testenv.Kube
	ns   string
	pv   string
	mu   sync.Mutex
	seen map[string]bool
}

// onPod gives a pod its mountinfo the first time it is seen.
func (w *podMounts) onPod(ctx context.Context, pod string) error {
	w.mu.Lock()
	seen := w.seen[pod]
	w.seen[pod] = true
	w.mu.Unlock()
	if seen {
		return nil
	}
	return w.mount(ctx, pod)
}

func (w *podMounts) mount(ctx context.Context, pod string) error {
	pv, err := w.k.Clients.Clientset.CoreV1().PersistentVolumes().Get(ctx, w.pv, metav1.GetOptions{})
	if err != nil {
		return err
	}
	line := cachingMount
	for _, o := range pv.Spec.MountOptions {
		for _, part := range strings.Split(o, ",") {
			if strings.TrimSpace(part) == "noac" {
				line = noacMount
			}
		}
	}
	return w.k.PutPodMountinfo(ctx, w.ns, pod, rootMount+line)
}
