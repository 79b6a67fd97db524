package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/proc"
	"github.com/osctl/osctl/pkg/redisproc"
)

// freePort finds a loopback port free at this moment for component (ControlPlane.freePort when
// a test set it, to take the port first).
func (k *Kube) freePort(component string) (int, error) {
	if k.opts.freePort != nil {
		return k.opts.freePort(component)
	}
	return redisproc.FreePort()
}

// listenAttempts is how many ports startListening tries for one component.
const listenAttempts = 5

// listenLimit is how long a component may take to answer ready (a loaded machine: the scheduler
// lists every kind it caches before it says ready).
const listenLimit = 90 * time.Second

// startListening starts component name, whose command line args(port) has it serve HTTPS with
// this control plane's certificate on port, and waits until path answers 200 there; it returns
// the port. freePort gives a port that is free when it looks: until the component listens, any
// process of this machine (the other test binaries of `go test ./...`, each starting control
// planes and servers on free ports) may take it, and the component then exits at once. That
// left a control plane without a scheduler, its pods Pending with no event. So a component that
// exits because its port was taken is started again on another port.
func (k *Kube) startListening(name string, env []string, bin, path string, args func(port int) []string) (int, error) {
	log := filepath.Join(k.Dir, "logs", name+".log")
	for attempt := 1; ; attempt++ {
		port, err := k.freePort(name)
		if err != nil {
			return 0, err
		}
		g, err := k.start(name, env, bin, args(port)...)
		if err != nil {
			return 0, err
		}
		err = k.waitReady(g, fmt.Sprintf("https://127.0.0.1:%d%s", port, path), listenLimit)
		if err == nil {
			return port, nil
		}
		if !g.Exited() || !portTaken(log) || attempt == listenAttempts {
			return 0, fmt.Errorf("%s on port %d (attempt %d): %w (log: %s)", name, port, attempt, err, logTail(log))
		}
		k.forget(g)
		_ = os.Rename(log, fmt.Sprintf("%s.port-taken-%d", log, attempt))
	}
}

// portTaken reports whether the component whose log is at path exited because its port was in
// use.
func portTaken(path string) bool {
	b, _ := os.ReadFile(path)
	return strings.Contains(string(b), "address already in use")
}

// forget drops the exited component g from those Stop ends and Diagnose reports.
func (k *Kube) forget(g *proc.Group) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for i, c := range k.procs {
		if c.g == g {
			k.procs = append(k.procs[:i], k.procs[i+1:]...)
			return
		}
	}
}

// exited names the components that have exited, with how ("" when all run): the control plane
// is broken then, and a test waiting on it should say so rather than time out.
func (k *Kube) exited() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	var gone []string
	for _, c := range k.procs {
		if c.g.Exited() {
			gone = append(gone, fmt.Sprintf("%s exited (%v)", c.name, c.g.Err()))
		}
	}
	return strings.Join(gone, "; ")
}
