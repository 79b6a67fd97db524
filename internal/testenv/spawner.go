package testenv

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"

	"github.com/osctl/osctl/pkg/proc"
)

// The control plane's processes get SIGKILL as their parent-death signal, so that they die with
// the test process. The kernel sends it when the thread that forked them ends, not the process
// (go.dev/issue/27505), and the Go runtime ends a thread when a goroutine that locked it returns
// without unlocking it (realnode's namespace switching leaves its thread so when it cannot switch
// back). A scheduler forked from such a thread would be killed mid-run, silently. So they are
// forked from one goroutine locked to its thread for the life of the test process.
var (
	spawnOnce sync.Once
	spawns    chan spawn
)

type spawn struct {
	cmd  *exec.Cmd
	done chan spawned
}

type spawned struct {
	g   *proc.Group
	err error
}

// startFromSpawner is proc.Start(cmd, SIGKILL), from the spawner's thread.
func startFromSpawner(cmd *exec.Cmd) (*proc.Group, error) {
	spawnOnce.Do(func() {
		spawns = make(chan spawn)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread lives as long as the process
			for s := range spawns {
				g, err := proc.Start(s.cmd, syscall.SIGKILL)
				s.done <- spawned{g, err}
			}
		}()
	})
	s := spawn{cmd, make(chan spawned, 1)}
	spawns <- s
	r := <-s.done
	return r.g, r.err
}
