package testenv

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Sandbox is one `osctl sandbox up` process started by a test, with what its JSON line said.
type Sandbox struct {
	// Replicas are the base URLs of the replicas, http://127.0.0.1:PORT.
	Replicas []string `json:"replicas"`
	// StateDir is the absolute path of the shared state directory.
	StateDir string `json:"state_dir"`
	// Redis are the Redis masters' URLs (passwords redacted); empty when the mode needs none.
	Redis []string `json:"redis"`
	// Locking is none, local or redlock.
	Locking string `json:"locking"`
	// Queue is local, split or shared.
	Queue string `json:"queue"`
	// Pid is the process id of `osctl sandbox up`.
	Pid int `json:"pid"`

	t        testing.TB
	cmd      *exec.Cmd
	stderr   *LockedBuffer
	done     chan struct{}
	waitErr  error
	stopOnce sync.Once
}

// sandboxStartTimeout bounds how long StartSandbox waits for the JSON line.
const sandboxStartTimeout = 60 * time.Second

// StartSandbox runs `<osctl binary> sandbox up args...` (the binary from OsctlBinary), waits for
// its JSON line and returns what it said. Without --dir in args the state directory is a
// t.TempDir(). The sandbox is stopped (SIGINT, then SIGKILL after 10 s)
// when the test ends; its stderr is logged if the test failed. A sandbox that does not come up
// fails the test with its stderr.
func StartSandbox(t testing.TB, args ...string) *Sandbox {
	t.Helper()
	bin := OsctlBinary(t)
	if !hasFlag(args, "--dir") {
		// Keep the state inside the test's temp dir (removed after Stop) rather than a new
		// temp dir that up would leave behind.
		args = append(args, "--dir", t.TempDir())
	}
	cmd := exec.Command(bin, append([]string{"sandbox", "up"}, args...)...)
	// up puts its replicas in their own process groups; a new group for up too keeps a test's
	// Ctrl-C from racing with Stop, and Pdeathsig ends up if the test binary dies.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	s := &Sandbox{t: t, cmd: cmd, stderr: &LockedBuffer{}, done: make(chan struct{})}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting osctl sandbox up: %v", err)
	}
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, r)
	}()
	go func() { s.waitErr = cmd.Wait(); close(s.done) }()
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			t.Logf("osctl sandbox up stderr:\n%s", s.Stderr())
		}
	})
	select {
	case line := <-lines:
		if strings.TrimSpace(line) == "" {
			<-s.done
			t.Fatalf("osctl sandbox up %s exited without its JSON line (%v):\n%s", strings.Join(args, " "), s.waitErr, s.Stderr())
		}
		if err := json.Unmarshal([]byte(line), s); err != nil {
			t.Fatalf("osctl sandbox up printed %q: %v", line, err)
		}
	case <-time.After(sandboxStartTimeout):
		s.Stop()
		t.Fatalf("osctl sandbox up %s printed no JSON line within %v:\n%s", strings.Join(args, " "), sandboxStartTimeout, s.Stderr())
	}
	if len(s.Replicas) == 0 || s.StateDir == "" {
		t.Fatalf("osctl sandbox up gave no replicas or state dir: %+v", s)
	}
	return s
}

// Stop ends the sandbox: SIGINT (up stops every replica and Redis it started), then SIGKILL if it
// has not exited after 10 s. It is safe to call more than once.
func (s *Sandbox) Stop() {
	s.stopOnce.Do(func() {
		select {
		case <-s.done:
			return
		default:
		}
		_ = s.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			_ = s.cmd.Process.Kill()
			<-s.done
			s.t.Errorf("osctl sandbox up did not stop within 10s of SIGINT; killed it")
		}
	})
}

// Exited reports whether the up process has ended, and its error (nil for exit 0).
func (s *Sandbox) Exited() (bool, error) {
	select {
	case <-s.done:
		return true, s.waitErr
	default:
		return false, nil
	}
}

// Done is closed when the up process has ended.
func (s *Sandbox) Done() <-chan struct{} { return s.done }

// Stderr returns everything up (and its replicas) wrote to stderr so far.
func (s *Sandbox) Stderr() string { return s.stderr.String() }

// URL returns replica i's base URL joined with path.
func (s *Sandbox) URL(i int, path string) string {
	return fmt.Sprintf("%s%s", s.Replicas[i%len(s.Replicas)], path)
}

// WaitIdle waits until the sandbox's background workers have nothing left to do (see
// WaitSandboxIdle).
func (s *Sandbox) WaitIdle(timeout time.Duration) error {
	return WaitSandboxIdle(context.Background(), s.Replicas, timeout)
}

// WaitSandboxIdle waits until no Resque job waits in the queues of the sandbox whose replicas
// are given and no replica's background worker holds one: GET /status answers
// worker.pending 0, and then every replica answers worker.busy false (a worker is busy from
// before it pops a job until a pop finds none, and nothing enqueues once the test stopped
// sending, so this order cannot miss a job). It fails after timeout.
func WaitSandboxIdle(ctx context.Context, replicas []string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := &http.Client{Timeout: 5 * time.Second}
	type status struct {
		Worker struct {
			Busy    bool   `json:"busy"`
			Pending *int64 `json:"pending"`
		} `json:"worker"`
	}
	get := func(base string) (status, error) {
		var st status
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/status", nil)
		if err != nil {
			return st, err
		}
		resp, err := c.Do(req)
		if err != nil {
			return st, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return st, fmt.Errorf("GET %s/status: HTTP %d", base, resp.StatusCode)
		}
		return st, json.NewDecoder(resp.Body).Decode(&st)
	}
	var last error
	for {
		idle := false
		if st, err := get(replicas[0]); err != nil {
			last = err
		} else if st.Worker.Pending == nil || *st.Worker.Pending > 0 {
			last = fmt.Errorf("jobs still queued (pending %v)", st.Worker.Pending)
		} else {
			idle = true
			for _, base := range replicas {
				st, err := get(base)
				if err != nil || st.Worker.Busy {
					idle, last = false, fmt.Errorf("the worker of %s is busy (%v)", base, err)
					break
				}
			}
		}
		if idle {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("sandbox workers not idle after %v: %v", timeout, last)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

// LockedBuffer is an io.Writer that several goroutines (a process's stdout and stderr copiers)
// may write while a test reads it.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns what was written so far.
func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
