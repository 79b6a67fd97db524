package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/redisproc"
	"github.com/osctl/osctl/pkg/sandbox"
)

// testReplicaEnv makes this test binary a sandbox replica instead of running the tests: the
// supervisor's tests re-execute it as their replica command. Its value is the replica's way:
// serve (as `osctl sandbox serve` does), stubborn (serve, ignoring SIGTERM) or fail (exit 3 at
// once).
const testReplicaEnv = "OSCTL_SANDBOX_TEST_REPLICA"

func init() {
	if way := os.Getenv(testReplicaEnv); way != "" {
		os.Exit(runTestReplica(way, os.Args[1:]))
	}
}

// runTestReplica serves one replica on file descriptor 3 until SIGTERM; args are the replica's
// index, the replica count, the state directory, the namespace and the Redis URLs.
func runTestReplica(way string, args []string) int {
	if way == "fail" || len(args) < 5 {
		return 3
	}
	if way == "stubborn" {
		signal.Ignore(syscall.SIGTERM)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	cfg := sandbox.Config{StateDir: args[2], Namespace: args[3]}
	cfg.Replica, _ = strconv.Atoi(args[0])
	cfg.Replicas, _ = strconv.Atoi(args[1])
	for _, u := range strings.Split(args[4], ",") {
		opt, err := redis.ParseURL(u)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		cfg.Masters = append(cfg.Masters, redis.NewClient(opt))
	}
	srv, err := sandbox.New(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	l, err := net.FileListener(os.NewFile(3, "listener"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(l) }()
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	return 0
}

// testReplicaArgs are runTestReplica's arguments for spec.
func testReplicaArgs(spec sandbox.ReplicaSpec) []string {
	return []string{strconv.Itoa(spec.Index), strconv.Itoa(spec.Replicas), spec.Dir, spec.Namespace, strings.Join(spec.RedisURLs, ",")}
}

// lineLog passes the replicas' output and the supervisor's lines to t.Log.
type lineLog struct {
	mu sync.Mutex
	t  *testing.T
}

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// testSupervisor returns a supervisor of n replicas of this test binary, run the given way, over
// a new state directory; it is stopped when the test ends.
func testSupervisor(t *testing.T, n int, way string, edit func(*sandbox.SupervisorConfig)) *sandbox.Supervisor {
	t.Helper()
	_, err := redisproc.Path()
	testenv.Require(t, err == nil, "redis-server ("+redisproc.InstallHint+")")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := &lineLog{t: t}
	cfg := sandbox.SupervisorConfig{
		Replicas: n, Dir: t.TempDir(), Executable: exe, Args: testReplicaArgs, Env: []string{testReplicaEnv + "=" + way},
		Output: out, Logf: func(format string, a ...any) { fmt.Fprintf(out, format, a...) },
	}
	if edit != nil {
		edit(&cfg)
	}
	sup := sandbox.NewSupervisor(cfg)
	t.Cleanup(sup.Stop)
	return sup
}

func startSupervisor(t *testing.T, n int, way string, edit func(*sandbox.SupervisorConfig)) *sandbox.Supervisor {
	t.Helper()
	sup := testSupervisor(t, n, way, edit)
	if err := sup.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return sup
}

// getStatus returns a replica's GET /status.
func getStatus(t *testing.T, base string) sandbox.Status {
	t.Helper()
	resp, err := http.Get(base + "/status")
	if err != nil {
		t.Fatalf("GET %s/status: %v", base, err)
	}
	defer resp.Body.Close()
	var st sandbox.Status
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s/status: %d %v", base, resp.StatusCode, err)
	}
	return st
}

// assertGone fails for every process that is still running (or a zombie nobody waited for).
func assertGone(t *testing.T, ps []sandbox.Process) {
	t.Helper()
	for _, p := range ps {
		if err := syscall.Kill(p.Pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("%v is still there after Stop (kill 0: %v)", p, err)
		}
	}
}

func TestSupervisorStartsReplicasOnDistinctPorts(t *testing.T) {
	sup := startSupervisor(t, 3, "serve", nil)
	replicas := sup.Replicas()
	if len(replicas) != 3 {
		t.Fatalf("%d replicas, want 3", len(replicas))
	}
	addrs, pids := map[string]bool{}, map[int]bool{os.Getpid(): true}
	for i, r := range replicas {
		st := getStatus(t, r.Addr)
		if !st.Sandbox || st.Replica != i || st.Replicas != 3 || r.Index != i {
			t.Errorf("replica %d (%v) answers %+v", i, r, st)
		}
		addrs[r.Addr], pids[r.Pid] = true, true
	}
	if len(addrs) != 3 || len(pids) != 4 {
		t.Errorf("replicas %v: want 3 addresses and 3 processes of their own", replicas)
	}
	if urls := sup.RedisURLs(); len(urls) != 1 || !strings.HasPrefix(urls[0], "redis://127.0.0.1:") {
		t.Errorf("Redis URLs %v, want the one redis-server started", urls)
	}
}

func TestSupervisorStopEndsEveryProcessItStarted(t *testing.T) {
	sup := startSupervisor(t, 2, "serve", func(c *sandbox.SupervisorConfig) { c.RedisMasters = 2 })
	started := sup.Running()
	if kinds := fmt.Sprint(started); strings.Count(kinds, "replica ") != 2 || strings.Count(kinds, "redis-server ") != 2 {
		t.Fatalf("running %v, want 2 replicas and 2 redis-servers", started)
	}
	sup.Stop()
	assertGone(t, started)
	if left := sup.Running(); len(left) != 0 {
		t.Errorf("running after Stop: %v", left)
	}
	if err := sup.Wait(); err != nil {
		t.Errorf("Wait after Stop: %v, want nil (nothing ended on its own)", err)
	}
}

// TestSupervisorKillsAReplicaThatIgnoresSIGTERM: Stop does not wait past its grace for a replica
// that goes on serving after SIGTERM.
func TestSupervisorKillsAReplicaThatIgnoresSIGTERM(t *testing.T) {
	sup := startSupervisor(t, 2, "stubborn", func(c *sandbox.SupervisorConfig) { c.StopGrace = 100 * time.Millisecond })
	started := sup.Running()
	sup.Stop()
	assertGone(t, started)
}

// TestSupervisorNoticesAKilledReplica kills one replica with SIGKILL, over Redis masters given
// to the supervisor (which it must not stop), with replicas built by a Command.
func TestSupervisorNoticesAKilledReplica(t *testing.T) {
	given := testenv.StartRedis(t)
	sup := startSupervisor(t, 3, "serve", func(c *sandbox.SupervisorConfig) {
		c.RedisURLs = []string{given.URL()}
		exe, args, env := c.Executable, c.Args, c.Env
		c.Executable, c.Args, c.Env = "", nil, nil
		c.Command = func(spec sandbox.ReplicaSpec) *exec.Cmd {
			cmd := exec.Command(exe, args(spec)...)
			cmd.Env = append(os.Environ(), env...)
			return cmd
		}
	})
	victim := sup.Replicas()[1]
	if err := syscall.Kill(victim.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-sup.Done()
	var exit *sandbox.ExitError
	if err := sup.Wait(); !errors.As(err, &exit) || exit.Process != victim || exit.AtStart || !strings.Contains(err.Error(), "signal: killed") {
		t.Fatalf("Wait: %v, want replica 1 (%v) killed", err, victim)
	}
	started := sup.Running()
	sup.Stop()
	assertGone(t, started)
	if !given.Alive() {
		t.Error("Stop stopped a redis-server it was given, not one it started")
	}
}

func TestSupervisorNoticesAStartedRedisServerDying(t *testing.T) {
	sup := startSupervisor(t, 1, "serve", nil)
	var srv sandbox.Process
	for _, p := range sup.Running() {
		if p.Kind == "redis-server" {
			srv = p
		}
	}
	if err := syscall.Kill(srv.Pid, syscall.SIGKILL); err != nil {
		t.Fatalf("killing the redis-server %v: %v", srv, err)
	}
	var exit *sandbox.ExitError
	if err := sup.Wait(); !errors.As(err, &exit) || exit.Process != srv {
		t.Fatalf("Wait: %v, want %v", err, srv)
	}
}

// TestSupervisorStartFailsWhenAReplicaExits: a replica that exits before it answers fails Start,
// which stops what it started.
func TestSupervisorStartFailsWhenAReplicaExits(t *testing.T) {
	sup := testSupervisor(t, 2, "fail", nil)
	err := sup.Start(context.Background())
	var exit *sandbox.ExitError
	if !errors.As(err, &exit) || !exit.AtStart || exit.Process.Index != 0 || err.Error() != "replica 0 exited at start (exit status 3)" {
		t.Fatalf("Start: %v, want replica 0 exited at start", err)
	}
	if left := sup.Running(); len(left) != 0 {
		t.Errorf("running after a failed Start: %v", left)
	}
	select {
	case <-sup.Done():
	default:
		t.Error("Done is open after a failed Start")
	}
}
