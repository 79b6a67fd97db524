// Package sandboxenv starts `osctl sandbox up` for tests, as a real process of the osctl binary,
// and reads its JSON line (pkg/sandbox's UpResult).
package sandboxenv

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/proc"
	"github.com/osctl/osctl/pkg/sandbox"
)

// Sandbox is one `osctl sandbox up` process started by a test, with what its JSON line said.
type Sandbox struct {
	sandbox.UpResult

	t        testing.TB
	g        *proc.Group
	stderr   *testenv.LockedBuffer
	stopOnce sync.Once
}

// startTimeout bounds how long Start waits for the JSON line.
const startTimeout = 60 * time.Second

// Start runs `<osctl binary> sandbox up args...` (the binary from OsctlBinary), waits for
// its JSON line and returns what it said. Without --dir in args the state directory is a
// t.TempDir(). The sandbox is stopped (SIGINT, then SIGKILL after 10 s)
// when the test ends; its stderr is logged if the test failed. A sandbox that does not come up
// fails the test with its stderr.
func Start(t testing.TB, args ...string) *Sandbox {
	t.Helper()
	testenv.SkipIfShort(t, "osctl sandbox up processes")
	bin := testenv.OsctlBinary(t)
	if !hasFlag(args, "--dir") {
		// Keep the state inside the test's temp dir (removed after Stop) rather than a new
		// temp dir that up would leave behind.
		args = append(args, "--dir", t.TempDir())
	}
	cmd := exec.Command(bin, append([]string{"sandbox", "up"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	s := &Sandbox{t: t, stderr: &testenv.LockedBuffer{}}
	cmd.Stderr = s.stderr
	// up puts its replicas in their own process groups; a new group for up too keeps a test's
	// Ctrl-C from racing with Stop, and Pdeathsig ends up if the test binary dies.
	if s.g, err = proc.Start(cmd, syscall.SIGKILL); err != nil {
		t.Fatalf("starting osctl sandbox up: %v", err)
	}
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, r)
	}()
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			t.Logf("osctl sandbox up stderr:\n%s", s.Stderr())
		}
	})
	select {
	case line := <-lines:
		if strings.TrimSpace(line) == "" {
			<-s.g.Done()
			t.Fatalf("osctl sandbox up %s exited without its JSON line (%v):\n%s", strings.Join(args, " "), s.g.Err(), s.Stderr())
		}
		if err := json.Unmarshal([]byte(line), s); err != nil {
			t.Fatalf("osctl sandbox up printed %q: %v", line, err)
		}
	case <-time.After(startTimeout):
		s.Stop()
		t.Fatalf("osctl sandbox up %s printed no JSON line within %v:\n%s", strings.Join(args, " "), startTimeout, s.Stderr())
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
		if s.g.StopLeader(syscall.SIGINT, 10*time.Second) {
			s.t.Errorf("osctl sandbox up did not stop within 10s of SIGINT; killed it")
		}
	})
}

// Exited reports whether the up process has ended, and its error (nil for exit 0).
func (s *Sandbox) Exited() (bool, error) {
	if !s.g.Exited() {
		return false, nil
	}
	return true, s.g.Err()
}

// Done is closed when the up process has ended.
func (s *Sandbox) Done() <-chan struct{} { return s.g.Done() }

// Stderr returns everything up (and its replicas) wrote to stderr so far.
func (s *Sandbox) Stderr() string { return s.stderr.String() }

// URL returns replica i's base URL joined with path.
func (s *Sandbox) URL(i int, path string) string {
	return fmt.Sprintf("%s%s", s.Replicas[i%len(s.Replicas)], path)
}

// WaitIdle waits until the sandbox's background workers have nothing left to do (see
// testenv.WaitSandboxIdle).
func (s *Sandbox) WaitIdle(timeout time.Duration) error {
	return testenv.WaitSandboxIdle(context.Background(), s.Replicas, timeout)
}

func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}
