package testenv

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

// BinaryEnv names the environment variable through which `make test` hands every test package
// the one osctl binary it built (so that thirteen packages do not each build it again).
const BinaryEnv = "OSCTL_TEST_BINARY"

// OsctlBinary returns the path of the osctl binary the tests run: the one named by
// $OSCTL_TEST_BINARY when set (make test builds it once), else one it builds (without -race, so
// load tests run at real speed) once per test process. A built binary lives until the process
// exits; call CleanupBinary from TestMain to remove it.
func OsctlBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		if p := os.Getenv(BinaryEnv); p != "" {
			binPath = p
			if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
				binErr = fmt.Errorf("$%s=%s is not an executable osctl binary (unset it to build one)", BinaryEnv, p)
			}
			return
		}
		root, err := ModuleRoot()
		if err != nil {
			binErr = err
			return
		}
		binDir, binErr = os.MkdirTemp("", "osctl-bin-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "osctl")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/osctl")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = &buildError{out: string(out), err: err}
		}
	})
	if binErr != nil {
		t.Fatalf("building osctl: %v", binErr)
	}
	return binPath
}

// CleanupBinary removes the binary built by OsctlBinary.
func CleanupBinary() {
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

// ModuleRoot returns the directory holding osctl's go.mod.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	return filepath.Dir(strings.TrimSpace(string(out))), nil
}

// ExitCode is the exit code of a command that ended with err (from exec.Cmd's Run, Wait,
// Output or CombinedOutput): 0 for nil, the code of an *exec.ExitError, and a failed test for
// any other error (the command did not run).
func ExitCode(t testing.TB, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	default:
		t.Fatalf("running osctl: %v", err)
		return -1
	}
}
