package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/proc"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.CleanupBinary()
	os.Exit(code)
}

// replicaPids returns the pids of up's children that run `sandbox serve`.
func replicaPids(t *testing.T, pid int) []int {
	t.Helper()
	var out []int
	for _, c := range children(t, pid) {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(c) + "/cmdline")
		if strings.Contains(string(b), "sandbox\x00serve\x00") {
			out = append(out, c)
		}
	}
	return out
}

// children returns the pids of the processes whose parent is pid (from /proc).
func children(t *testing.T, pid int) []int {
	t.Helper()
	kids, err := proc.Children(pid)
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	return kids
}

func TestUpStopsEverythingOnInterrupt(t *testing.T) {
	_, err := exec.LookPath("redis-server")
	testenv.Require(t, err == nil, "redis-server")
	sb := sandboxenv.Start(t, "--replicas", "2", "--locking", "redlock", "--queue", "shared", "--redis-masters", "2")
	if len(sb.Replicas) != 2 || len(sb.Redis) != 2 || sb.Locking != "redlock" || sb.Queue != "shared" {
		t.Fatalf("JSON line: %+v", sb)
	}
	kids := children(t, sb.Pid)
	if len(kids) != 4 {
		t.Fatalf("up has %d child processes, want 2 replicas + 2 redis-server: %v", len(kids), kids)
	}
	sb.Stop()
	if _, err := sb.Exited(); err != nil {
		t.Errorf("up exited with %v after SIGINT, want 0", err)
	}
	for _, pid := range kids {
		if proc.Alive(pid) {
			t.Errorf("process %d still running after up stopped", pid)
		}
	}
	if !strings.Contains(sb.Stderr(), "stopped 2 replica(s)") || !strings.Contains(sb.Stderr(), "stopped 2 redis-server") {
		t.Errorf("up did not say what it stopped:\n%s", sb.Stderr())
	}
}

// TestUpRestartsAKilledReplica: by default a replica that dies is started again on its port,
// and up says so and stays up.
func TestUpRestartsAKilledReplica(t *testing.T) {
	sb := sandboxenv.Start(t, "--replicas", "2")
	kids := replicaPids(t, sb.Pid)
	if len(kids) != 2 {
		t.Fatalf("up has %d replicas, want 2", len(kids))
	}
	if err := syscall.Kill(kids[1], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 20*time.Second, "up says it started the replica again", func() bool {
		return strings.Contains(sb.Stderr(), "exited (signal: killed); started it again on http://127.0.0.1:")
	}, sb.Stderr)
	if ok, _ := sb.Exited(); ok {
		t.Fatalf("up exited after a replica died:\n%s", sb.Stderr())
	}
	for _, u := range sb.Replicas {
		resp, err := http.Get(u + "/status")
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s after the restart: %v", u, err)
		}
		resp.Body.Close()
	}
}

func TestUpExitsWhenAReplicaDies(t *testing.T) {
	sb := sandboxenv.Start(t, "--replicas", "2", "--restart=false")
	kids := replicaPids(t, sb.Pid)
	if len(kids) != 2 {
		t.Fatalf("up has %d replicas, want 2", len(kids))
	}
	if err := syscall.Kill(kids[1], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-sb.Done():
	case <-time.After(15 * time.Second):
		t.Fatal("up did not exit after a replica died")
	}
	_, err := sb.Exited()
	var ee *exec.ExitError
	if err == nil || !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("up exited with %v, want exit status 2", err)
	}
	if !strings.Contains(sb.Stderr(), "exited") || !strings.Contains(sb.Stderr(), "stopped the sandbox") {
		t.Errorf("up did not say a replica died:\n%s", sb.Stderr())
	}
	if proc.Alive(kids[0]) {
		t.Errorf("the other replica (pid %d) is still running", kids[0])
	}
}

func TestUpSaysHowToInstallRedis(t *testing.T) {
	bin := testenv.OsctlBinary(t)
	// The default modes (locking none, local queue) need Redis too: the workers take jobs from it.
	cmd := exec.Command(bin, "sandbox", "up", "--dir", t.TempDir())
	cmd.Env = append(os.Environ(), "PATH=/nonexistent", "OSCTL_REDIS=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if testenv.ExitCode(t, err) != 2 {
		t.Fatalf("exit %v, want 2; stderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "apt-get install -y redis-server") || stdout.Len() != 0 {
		t.Fatalf("stdout %q stderr %q: want the install command and no JSON line", stdout.String(), stderr.String())
	}
}

// TestUpGivesEveryReplicaTheWorkerSettings: every mode starts Redis for the workers, and each
// replica's GET /status says how its worker and fault injection are set.
func TestUpGivesEveryReplicaTheWorkerSettings(t *testing.T) {
	sb := sandboxenv.Start(t, "--replicas", "2", "--background-interval", "250ms", "--zip-rewrite=false", "--drop-creates", "0.5")
	if len(sb.Redis) != 1 {
		t.Fatalf("--locking none started %d Redis masters, want 1 for the workers", len(sb.Redis))
	}
	for i, base := range sb.Replicas {
		resp, err := http.Get(base + "/status")
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Sandbox            bool    `json:"sandbox"`
			BackgroundInterval string  `json:"background_interval"`
			ZipRewrite         *bool   `json:"zip_rewrite"`
			DropCreates        float64 `json:"drop_creates"`
			Worker             struct {
				Queues  []string `json:"queues"`
				Pending *int64   `json:"pending"`
			} `json:"worker"`
		}
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if err != nil || !st.Sandbox || st.BackgroundInterval != "250ms" || st.ZipRewrite == nil || *st.ZipRewrite || st.DropCreates != 0.5 {
			t.Errorf("replica %d /status: %+v %v", i, st, err)
		}
		if len(st.Worker.Queues) != 2 || !strings.HasSuffix(st.Worker.Queues[0], ":resque:queue:analysis_wrappers") || st.Worker.Pending == nil {
			t.Errorf("replica %d worker: %+v, want its two Resque queues and their length", i, st.Worker)
		}
	}
	if !strings.Contains(sb.Stderr(), "workers poll every 250ms") || !strings.Contains(sb.Stderr(), "LOSING 0.5") {
		t.Errorf("up's summary does not say how the workers and faults are set:\n%s", sb.Stderr())
	}
}

// TestSecondInterruptExitsAt130: the first Ctrl-C starts up's graceful stop, which waits for a
// replica that cannot answer (it is SIGSTOPped, so SIGTERM waits out the grace); a second Ctrl-C
// exits at once with 130, before the stop finishes, naming what it leaves undone. The replica does
// not outlive up.
func TestSecondInterruptExitsAt130(t *testing.T) {
	sb := sandboxenv.Start(t, "--replicas", "1")
	kids := replicaPids(t, sb.Pid)
	if len(kids) != 1 {
		t.Fatalf("up has %d replicas, want 1", len(kids))
	}
	if err := syscall.Kill(kids[0], syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(sb.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	testenv.WaitFor(t, 30*time.Second, "up to start stopping", func() (bool, error) {
		return strings.Contains(sb.Stderr(), "sandbox: stopping"), nil
	})
	if err := syscall.Kill(sb.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-sb.Done():
	case <-time.After(60 * time.Second):
		t.Fatalf("up did not exit after a second SIGINT:\n%s", sb.Stderr())
	}
	_, err := sb.Exited()
	if testenv.ExitCode(t, err) != 130 {
		t.Fatalf("up exited with %v after a second SIGINT, want exit status 130\n%s", err, sb.Stderr())
	}
	errOut := sb.Stderr()
	want := "interrupted again: exiting at once; left undone: the graceful stop of replica 0 (pid " + strconv.Itoa(kids[0]) + ")"
	if !strings.Contains(errOut, want) || !strings.Contains(errOut, "state kept in "+sb.StateDir) {
		t.Errorf("stderr does not say what was left undone (%q):\n%s", want, errOut)
	}
	if strings.Contains(errOut, "stopped 1 replica(s)") {
		t.Errorf("up finished its graceful stop: the second SIGINT did not exit at once:\n%s", errOut)
	}
	testenv.WaitFor(t, 30*time.Second, "the replica to die with up", func() (bool, error) { return !proc.Alive(kids[0]), nil })
}
