// Package rails_test drives contrib/rails/osctl_lock.rb, the Ruby lock module for OpenStudio
// Server, with the real `ruby` against real redis-server processes, next to osctl's own Go lock
// (pkg/lock) and the real osctl binary. The Ruby side of each test is testdata/driver.rb; the
// module's own API tests are test/osctl_lock_test.rb (minitest), run by TestRubySuite.
package rails_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/proc"
)

func TestMain(m *testing.M) { os.Exit(testenv.RunMain(m)) }

// rubyInstallHint is what installs the Ruby side on Debian (scripts/test-deps.sh runs it).
const rubyInstallHint = "apt-get install -y ruby ruby-redis"

var (
	rubyOnce sync.Once
	rubyPath string
	rubyErr  error
)

// requireRuby returns the ruby binary. Without ruby, or without the redis gem, the test fails in
// CI and is skipped loudly elsewhere (testenv.Require).
func requireRuby(t *testing.T) string {
	t.Helper()
	testenv.SkipIfShort(t, "Ruby")
	rubyOnce.Do(func() {
		rubyPath, rubyErr = exec.LookPath("ruby")
		if rubyErr != nil {
			return
		}
		out, err := exec.Command(rubyPath, "-e", `require "redis"; print Redis::VERSION`).CombinedOutput()
		if err != nil {
			rubyErr = fmt.Errorf("ruby cannot load the redis gem: %v: %s", err, out)
			return
		}
		version = strings.TrimSpace(string(out))
	})
	testenv.Require(t, rubyErr == nil, fmt.Sprintf("ruby with the redis gem (%s): %v", rubyInstallHint, rubyErr))
	return rubyPath
}

// version is the redis gem's version, for the logs.
var version string

// monoNow reads CLOCK_MONOTONIC, the clock driver.rb stamps its events with.
func monoNow(t *testing.T) int64 {
	t.Helper()
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		t.Fatal(err)
	}
	return ts.Nano()
}

// event is one JSON line of driver.rb.
type event map[string]any

func (e event) str(k string) string {
	s, _ := e[k].(string)
	return s
}

func (e event) num(k string) int64 {
	f, _ := e[k].(float64)
	return int64(f)
}

// rubyProc is one running `ruby driver.rb CMD`.
type rubyProc struct {
	t      *testing.T
	g      *proc.Group
	stdin  io.WriteCloser
	events chan event
	stderr *testenv.LockedBuffer
}

// startDriver starts driver.rb with cmd and env; it is killed when the test ends.
func startDriver(t *testing.T, cmd string, env ...string) *rubyProc {
	t.Helper()
	ruby := requireRuby(t)
	c := exec.Command(ruby, filepath.Join("testdata", "driver.rb"), cmd)
	c.Env = append(os.Environ(), env...)
	stdin, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &rubyProc{t: t, stdin: stdin, events: make(chan event, 4096), stderr: &testenv.LockedBuffer{}}
	c.Stderr = p.stderr
	if p.g, err = proc.Start(c, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.events)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var e event
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				e = event{"event": "unparsed", "line": sc.Text()}
			}
			p.events <- e
		}
	}()
	t.Cleanup(func() {
		p.g.Kill()
		if t.Failed() {
			t.Logf("driver.rb %s stderr:\n%s", cmd, p.stderr.String())
		}
	})
	return p
}

// next returns the next event, failing the test after timeout or when the process ended.
func (p *rubyProc) next(timeout time.Duration) event {
	p.t.Helper()
	select {
	case e, ok := <-p.events:
		if !ok {
			p.t.Fatalf("driver.rb ended without the expected event; stderr:\n%s", p.stderr.String())
		}
		return e
	case <-time.After(timeout):
		p.t.Fatalf("no event from driver.rb within %v; stderr:\n%s", timeout, p.stderr.String())
	}
	return nil
}

// waitFor returns the first event whose "event" is name, failing on another one.
func (p *rubyProc) waitFor(name string, timeout time.Duration) event {
	p.t.Helper()
	e := p.next(timeout)
	if e.str("event") != name {
		p.t.Fatalf("driver.rb: got %v, want event %q; stderr:\n%s", e, name, p.stderr.String())
	}
	return e
}

// exitCode waits for the process to end (at most timeout) and returns its exit code.
func (p *rubyProc) exitCode(timeout time.Duration) int {
	p.t.Helper()
	select {
	case <-p.g.Done():
	case <-time.After(timeout):
		p.t.Fatalf("driver.rb still running after %v", timeout)
	}
	return p.g.Cmd.ProcessState.ExitCode()
}

// runRuby runs ruby with args to completion (bounded) and returns its combined output.
func runRuby(t *testing.T, timeout time.Duration, env []string, args ...string) (string, error) {
	t.Helper()
	ruby := requireRuby(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c := exec.CommandContext(ctx, ruby, args...)
	c.Env = append(os.Environ(), env...)
	out, err := c.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("ruby %v did not finish within %v:\n%s", args, timeout, out)
	}
	return string(out), err
}

// driverEvents runs driver.rb cmd to completion and returns its events.
func driverEvents(t *testing.T, timeout time.Duration, cmd string, env ...string) []event {
	t.Helper()
	out, err := runRuby(t, timeout, env, filepath.Join("testdata", "driver.rb"), cmd)
	if err != nil {
		t.Fatalf("driver.rb %s: %v\n%s", cmd, err, out)
	}
	var evs []event
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("driver.rb %s printed a line that is not JSON: %q", cmd, line)
		}
		evs = append(evs, e)
	}
	return evs
}

// osctl runs the real osctl binary with args and returns stdout, stderr and the exit code.
func osctl(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	bin := testenv.OsctlBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, bin, args...)
	c.Env = append(os.Environ(), "NO_COLOR=1")
	var o, e strings.Builder
	c.Stdout, c.Stderr = &o, &e
	err := c.Run()
	if ctx.Err() != nil {
		t.Fatalf("osctl %v did not finish within 60s", args)
	}
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return o.String(), e.String(), ee.ExitCode()
		}
		t.Fatalf("osctl %v: %v", args, err)
	}
	return o.String(), e.String(), 0
}

// redisFlags returns --redis URL for each master.
func redisFlags(urls []string) []string {
	var out []string
	for _, u := range urls {
		out = append(out, "--redis", u)
	}
	return out
}
