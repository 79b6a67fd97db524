package rollout

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/proc"
)

// CmdGate passes when `sh -c Command` exits 0. The command runs in its own process group, which
// is killed (by its id) when the context ends.
type CmdGate struct {
	Command string
	Env     []string // extra environment, for example OSCTL_ROLLOUT_STEP=2
}

// Name implements Gate.
func (g *CmdGate) Name() string { return "cmd" }

// Check implements Gate.
func (g *CmdGate) Check(ctx context.Context) GateResult {
	var out bytes.Buffer
	cmd := exec.Command("sh", "-c", g.Command)
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Env = append(cmd.Environ(), g.Env...)
	pg, err := proc.Start(cmd, 0)
	if err != nil {
		return GateResult{Status: preflight.Fail, Message: "could not start the command: " + err.Error()}
	}
	select {
	case <-pg.Done():
		err = pg.Err()
	case <-ctx.Done():
		_ = pg.Signal(syscall.SIGKILL)
		select {
		case <-pg.Done(): // killed: its exit status says nothing more
		case <-time.After(5 * time.Second):
		}
		return GateResult{Status: preflight.Fail, Message: "the command did not finish: " + context.Cause(ctx).Error() + tailOf(out.String())}
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return GateResult{Status: preflight.Fail, Message: fmt.Sprintf("the command exited %d%s", ee.ExitCode(), tailOf(out.String()))}
		}
		return GateResult{Status: preflight.Fail, Message: "the command: " + err.Error()}
	}
	return GateResult{Status: preflight.Pass, Message: "the command exited 0"}
}

// tailOf returns the last line of output, masked (maskOutput), as ": line".
func tailOf(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if len(last) > 200 {
		last = last[:200] + "..."
	}
	return ": " + maskOutput(last)
}
