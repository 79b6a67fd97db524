// Package leftover reads what a dead holder may have left on a stress run's target after its
// load: lock files without their receipt and .osctl-tmp-* files in the run's directories of the
// state directory, and the locks still on the Redis masters of the sandbox over that directory,
// which it reads through its Sandbox interface (pkg/sandbox.StateDir is one).
// It reports; it removes nothing (osctl locks files --delete and osctl locks break do).
package leftover

import (
	"context"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// Sandbox is what Read needs of the sandbox a run loaded (pkg/sandbox's StateDir is one).
type Sandbox interface {
	// Dir is its state directory, which holds the run's directories.
	Dir() string
	// TempPrefix starts the name of every temp file or directory its writers put aside.
	TempPrefix() string
	// Processes returns the addresses of its redis-servers and its running replicas by pid, each
	// named as its errors name it ("replica 1 (pid 42)"); an error when no sandbox runs over Dir.
	Processes() (redis []string, replicas map[int]string, err error)
}

// Read lists the leftovers in sb's state directory: the files in dirs (relative to it) and, when
// sb runs (it names its redis-servers), the locks on its masters. What cannot be read is a
// warning, never an error.
func Read(ctx context.Context, sb Sandbox, dirs []string, now time.Time) *history.Leftovers {
	l := &history.Leftovers{ReadAt: now.UTC(), LockFiles: []history.LeftoverFile{}, TempFiles: []history.LeftoverFile{}, RedisLocks: []history.LeftoverLock{}}
	readFiles(ctx, sb.Dir(), sb.TempPrefix(), dirs, now, l)
	readRedis(ctx, sb, l)
	return l
}
