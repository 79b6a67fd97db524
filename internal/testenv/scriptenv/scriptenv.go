// Package scriptenv runs testscript (.txtar) scripts against the real osctl binary: the binary
// that testenv.OsctlBinary builds is first on the scripts' PATH, so `exec osctl ...` runs it as a
// user would, and the `status N osctl ...` command checks its exact exit code.
package scriptenv

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/osctl/osctl/internal/testenv"
)

// Run runs the scripts of p.Dir with the osctl binary on PATH and the status command added to
// p.Cmds.
func Run(t *testing.T, p testscript.Params) {
	t.Helper()
	bin := testenv.OsctlBinary(t)
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		env.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+env.Getenv("PATH"))
		if setup != nil {
			return setup(env)
		}
		return nil
	}
	cmds := map[string]func(*testscript.TestScript, bool, []string){"status": cmdStatus}
	for k, v := range p.Cmds {
		cmds[k] = v
	}
	p.Cmds = cmds
	testscript.Run(t, p)
}

// cmdStatus is `status N program args...`: it runs the program like exec and fails unless it
// exits with code N. Its stdout and stderr are then checked with stdout and stderr as usual.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("usage: status N program [args...] (no !)")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: status N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: %q is not an exit code", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("status: %v", err)
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}
