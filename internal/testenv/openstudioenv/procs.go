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
)

// proc is one process this environment started, stopped by its pid.
type proc struct {
	name string
	log  string // its stdout and stderr
	cmd  *exec.Cmd
	done chan struct{}
	// pidFile, when set, names a daemon the process started (Passenger's watchdog): it is
	// stopped by the pid in that file, should it outlive the process.
	pidFile string
}

// startProc starts argv in dir with env, under upstream's `umask 0000` (docker/server's
// rails-entrypoint.sh), in a process group of its own (so a Ctrl-C of the harness reaches it
// only through Stop), writing its output to logDir/name.log.
func startProc(name, dir, logDir string, env []string, argv ...string) (*proc, error) {
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
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s (%s): %v", name, argv[0], err)
	}
	p := &proc{name: name, log: log, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	return p, nil
}

// exited reports whether the process has ended.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop sends SIGTERM to the process's pid, waits up to grace, then SIGKILLs it; then does the
// same for the daemon named by pidFile if it is still alive.
func (p *proc) stop(grace time.Duration) error {
	var errs []error
	if !p.exited() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(grace):
			_ = p.cmd.Process.Kill()
			<-p.done
			errs = append(errs, fmt.Errorf("%s (pid %d) ignored SIGTERM for %s and was killed", p.name, p.cmd.Process.Pid, grace))
		}
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
func (p *proc) tail() string {
	b, _ := os.ReadFile(p.log)
	return lastLines(string(b), 20)
}
