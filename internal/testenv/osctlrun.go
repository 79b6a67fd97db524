package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// OsctlRun is one run of the osctl binary under test: its arguments, its exit code, what it
// printed (Output holds stdout and stderr together, in the order they were written) and how long
// it took.
type OsctlRun struct {
	Args           []string
	Code           int
	Stdout, Stderr string
	Output         string
	Wall           time.Duration
}

// Osctl is a run of the osctl binary under way (StartOsctl); Wait ends it.
type Osctl struct {
	// Cmd is the running command (to signal it); Stderr is what it has written to stderr so far.
	Cmd    *exec.Cmd
	Stderr *LockedBuffer

	ctx     context.Context
	cancel  context.CancelFunc
	timeout time.Duration
	stdout  bytes.Buffer
	output  LockedBuffer
	began   time.Time
}

// StartOsctl starts the osctl binary (OsctlBinary) with args; it is killed should it run longer
// than timeout, which fails the test in Wait.
func StartOsctl(t testing.TB, timeout time.Duration, args ...string) *Osctl {
	t.Helper()
	o := &Osctl{Stderr: &LockedBuffer{}, timeout: timeout}
	o.ctx, o.cancel = context.WithTimeout(t.Context(), timeout)
	o.Cmd = exec.CommandContext(o.ctx, OsctlBinary(t), args...)
	o.Cmd.Stdout = io.MultiWriter(&o.stdout, &o.output)
	o.Cmd.Stderr = io.MultiWriter(o.Stderr, &o.output)
	o.began = time.Now()
	if err := o.Cmd.Start(); err != nil {
		o.cancel()
		t.Fatalf("starting osctl %s: %v", strings.Join(args, " "), err)
	}
	return o
}

// Wait waits for the run to end and returns it, whatever its exit code. A run that did not end
// within its timeout, or ended other than by exiting, fails the test.
func (o *Osctl) Wait(t testing.TB) OsctlRun {
	t.Helper()
	defer o.cancel()
	err := o.Cmd.Wait()
	r := OsctlRun{Args: o.Cmd.Args[1:], Stdout: o.stdout.String(), Stderr: o.Stderr.String(), Output: o.output.String(), Wall: time.Since(o.began)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case o.ctx.Err() != nil:
		t.Fatalf("osctl %s did not end within %s (%v)\n%s", strings.Join(r.Args, " "), o.timeout, err, r.Stderr)
	case errors.As(err, &ee):
		r.Code = ee.ExitCode()
	default:
		t.Fatalf("osctl %s: %v after %v\n%s", strings.Join(r.Args, " "), err, r.Wall, r.Stderr)
	}
	return r
}

// RunOsctl runs the osctl binary with args, bounded by timeout (StartOsctl, then Wait).
func RunOsctl(t testing.TB, timeout time.Duration, args ...string) OsctlRun {
	t.Helper()
	return StartOsctl(t, timeout, args...).Wait(t)
}

// Decode parses what the run printed on stdout (osctl's -o json report) into v, and fails the
// test when it is not JSON.
func (r OsctlRun) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.Stdout), v); err != nil {
		t.Fatalf("osctl %s exited %d without a JSON report: %v\nstdout: %.2000s\nstderr: %s", strings.Join(r.Args, " "), r.Code, err, r.Stdout, r.Stderr)
	}
}
