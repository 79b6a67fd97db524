package openstudioenv

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/osctl/osctl/pkg/proc"
)

// component is one process this environment started, stopped by its pid.
type component struct {
	name string
	log  string // its stdout and stderr
	*proc.Group
	// pidFile, when set, names a daemon the process started (Passenger's watchdog): it is
	// stopped by the pid in that file, should it outlive the process.
	pidFile string
}

// startProc starts argv in dir with env, under upstream's `umask 0000` (docker/server's
// rails-entrypoint.sh), in a process group of its own (so a Ctrl-C of the harness reaches it
// only through Stop), writing its output to logDir/name.log.
func startProc(name, dir, logDir string, env []string, argv ...string) (*component, error) {
	log := filepath.Join(logDir, name+".log")
	f, err := os.OpenFile(log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cmd := exec.Command("/bin/sh", append([]string{"-c", `umask 0000; exec "$@"`, name}, argv...)...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, f, f
	// SIGTERM if this process dies without stopping it (a test binary killed): Passenger and the
	// Resque workers then stop their own children.
	g, err := proc.Start(cmd, syscall.SIGTERM)
	if err != nil {
		return nil, fmt.Errorf("starting %s (%s): %v", name, argv[0], err)
	}
	return &component{name: name, log: log, Group: g}, nil
}

// stop sends SIGTERM to the process's pid, waits up to grace, then SIGKILLs it; then does the
// same for the daemon named by pidFile if it is still alive.
func (p *component) stop(grace time.Duration) error {
	var errs []error
	if p.StopLeader(syscall.SIGTERM, grace) {
		errs = append(errs, fmt.Errorf("%s (pid %d) ignored SIGTERM for %s and was killed", p.name, p.Pid(), grace))
	}
	if p.pidFile != "" {
		if err := stopPidFile(p.pidFile, grace); err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", p.name, err))
		}
	}
	return errors.Join(errs...)
}

// stopPidFile stops the process whose pid the file holds, if it still runs.
func stopPidFile(path string, grace time.Duration) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil // never written, or removed by the daemon as it stopped
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		return nil
	}
	if syscall.Kill(pid, 0) != nil {
		return nil
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	for end := time.Now().Add(grace); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return nil
		}
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	return fmt.Errorf("pid %d from %s ignored SIGTERM for %s and was killed", pid, path, grace)
}

// tail returns the last lines of the process's log, for an error.
func (p *component) tail() string {
	b, _ := os.ReadFile(p.log)
	return lastLines(string(b), 20)
}
