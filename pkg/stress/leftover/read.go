// Package leftover reads what a dead holder may have left on a stress run's target after its
// load: lock files without their receipt and .osctl-tmp-* files in the run's directories of the
// state directory, and the locks still on the Redis masters of the sandbox over that directory.
// It reports; it removes nothing (osctl locks files --delete and osctl locks break do).
package leftover

import (
	"context"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// Read lists the leftovers under stateDir: the files in dirs (relative to stateDir) and, when
// stateDir is a running sandbox's (its sandbox-processes.json names its redis-servers), the
// locks on its masters. What cannot be read is a warning, never an error.
func Read(ctx context.Context, stateDir string, dirs []string, now time.Time) *history.Leftovers {
	l := &history.Leftovers{ReadAt: now.UTC(), LockFiles: []history.LeftoverFile{}, TempFiles: []history.LeftoverFile{}, RedisLocks: []history.LeftoverLock{}}
	readFiles(ctx, stateDir, dirs, now, l)
	readRedis(ctx, stateDir, l)
	return l
}
