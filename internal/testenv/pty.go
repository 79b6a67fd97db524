package testenv

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// RunTerminal runs the osctl binary with args on a pseudo-terminal of cols columns (its stdin,
// stdout and stderr all on it), for at most timeout, and returns what it printed (with the
// terminal's \r\n turned back into \n) and its exit code.
func RunTerminal(t testing.TB, cols int, timeout time.Duration, dir string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, OsctlBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "TERM=dumb")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(cols), Rows: 50})
	if err != nil {
		t.Fatalf("starting osctl on a terminal: %v", err)
	}
	var out bytes.Buffer
	_, _ = io.Copy(&out, tty) // ends with EIO once the process has exited and closed the terminal
	err = cmd.Wait()
	_ = tty.Close()
	if ctx.Err() != nil {
		t.Fatalf("osctl %s did not end within %s on a terminal:\n%s", strings.Join(args, " "), timeout, out.String())
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("osctl on a terminal: %v", err)
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), code
}

// TooWide returns the lines of terminal output wider than cols columns. A line is what lies
// between two line ends or carriage returns (a progress bar redraws itself after a \r).
func TooWide(out string, cols int) []string {
	var bad []string
	for _, l := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if twwidth.Width(l) > cols {
			bad = append(bad, l)
		}
	}
	return bad
}
