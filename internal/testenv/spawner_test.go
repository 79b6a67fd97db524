package testenv

import (
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/proc"
)

// TestSpawnedProcessOutlivesTheThreadThatAsked: a process started through the spawner from a
// goroutine whose thread then ends survives it, while one proc.Start-ed with a parent-death
// signal from such a thread is killed (the hazard the spawner is for).
func TestSpawnedProcessOutlivesTheThreadThatAsked(t *testing.T) {
	start := func(viaSpawner bool) *proc.Group {
		res := make(chan *proc.Group)
		go func() {
			runtime.LockOSThread() // not unlocked: the thread ends with this goroutine
			var g *proc.Group
			var err error
			if viaSpawner {
				g, err = startFromSpawner(exec.Command("sleep", "60"))
			} else {
				g, err = proc.Start(exec.Command("sleep", "60"), syscall.SIGKILL)
			}
			if err != nil {
				t.Error(err)
			}
			res <- g
		}()
		g := <-res
		if g != nil {
			t.Cleanup(g.Kill)
		}
		return g
	}
	// The runtime parks rather than ends the main thread when its locked goroutine returns, so a
	// direct start may happen to come from the one thread that never ends: try a few.
	killed := false
	for i := 0; i < 5 && !killed; i++ {
		direct := start(false)
		if direct == nil {
			t.FailNow()
		}
		select {
		case <-direct.Done():
			killed = true
		case <-time.After(5 * time.Second):
		}
	}
	if !killed {
		t.Fatal("no process forked from an ended thread was killed: the test shows no hazard")
	}
	spawned := start(true)
	if spawned == nil {
		t.FailNow()
	}
	time.Sleep(time.Second)
	if spawned.Exited() {
		t.Fatalf("the process started through the spawner died with the asking thread: %v", spawned.Err())
	}
}
