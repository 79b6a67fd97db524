package rollout_test

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	rolloutcmd "github.com/osctl/osctl/internal/cli/rollout"
	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/rollouttest"
	"github.com/osctl/osctl/pkg/rollout"
)

// proc is a real osctl process.
type proc struct {
	cmd    *exec.Cmd
	stdout testenv.LockedBuffer
	stderr testenv.LockedBuffer
	done   chan struct{}
	code   int
}

// startOsctl runs the real osctl binary with the kubeconfig and namespace.
func startOsctl(t *testing.T, kubeconfig, ns string, args ...string) *proc {
	t.Helper()
	bin := testenv.OsctlBinary(t)
	p := &proc{done: make(chan struct{})}
	p.cmd = exec.Command(bin, append([]string{"--kubeconfig", kubeconfig, "-n", ns}, args...)...)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		err := p.cmd.Wait()
		var ee *exec.ExitError
		switch {
		case err == nil:
		case errors.As(err, &ee):
			p.code = ee.ExitCode()
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				p.code = -int(ws.Signal())
			}
		default:
			p.code = -1000
		}
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// wait waits for the process to exit and returns its exit code.
func (p *proc) wait(t *testing.T, timeout time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.code
	case <-time.After(timeout):
		_ = p.cmd.Process.Kill()
		<-p.done
		t.Fatalf("osctl %v did not finish within %v\nstdout:\n%s\nstderr:\n%s", p.cmd.Args[1:], timeout, p.stdout.String(), p.stderr.String())
	}
	return 0
}

// osctl runs the binary to completion.
func osctl(t *testing.T, kubeconfig, ns string, timeout time.Duration, args ...string) (int, string, string) {
	t.Helper()
	p := startOsctl(t, kubeconfig, ns, args...)
	code := p.wait(t, timeout)
	return code, p.stdout.String(), p.stderr.String()
}

// runInProcess runs `osctl rollout ARGS` in this process (with -race) on test streams.
func runInProcess(t *testing.T, ctx context.Context, kubeconfig, ns string, redisURLs []string, args ...string) (int, string, string) {
	t.Helper()
	f := cmdutil.New("test")
	io, _, out, errOut := cmdutil.Test()
	f.IO = io
	f.KubeFlags.Kubeconfig, f.KubeFlags.Namespace = kubeconfig, ns
	f.Redis.URLs = redisURLs
	cmd := rolloutcmd.NewCmdRollout(f)
	cmd.SetArgs(args)
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.ExecuteContext(ctx)
	if err != nil {
		errOut.WriteString("Error: " + err.Error() + "\n")
	}
	return cmdutil.ExitCode(err), out.String(), errOut.String()
}

// journal reads the rollout journal on the workload's HPA (nil when there is none).
func journal(t *testing.T, w *rollouttest.Workload) *rollout.Journal {
	t.Helper()
	_, _, ann := w.HPA(t)
	s, ok := ann[rollout.AnnotationJournal]
	if !ok {
		return nil
	}
	j, err := rollout.DecodeJournal(s)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// waitHolding waits until the journal is at step n (1-based) and the Deployment has settled there.
func waitHolding(t *testing.T, w *rollouttest.Workload, n int, replicas int32, p *proc) {
	t.Helper()
	testenv.WaitFor(t, 60*time.Second, "the rollout to hold at step", func() (bool, error) {
		select {
		case <-p.done:
			t.Fatalf("osctl exited %d early\nstdout:\n%s\nstderr:\n%s", p.code, p.stdout.String(), p.stderr.String())
		default:
		}
		j := journal(t, w)
		if j == nil || j.Step != n || j.Phase != rollout.PhaseRunning {
			return false, nil
		}
		return strings.Contains(p.stderr.String(), fmt.Sprintf("step %d (%d replicas) ready; holding", n, replicas)), nil
	})
	w.WaitSettled(t, replicas, 5*time.Second)
}

func mustContain(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%s lacks %q:\n%s", what, sub, s)
		}
	}
}
