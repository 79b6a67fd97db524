package sandbox

import (
	"context"
	"time"

	"github.com/osctl/osctl/pkg/lock"
)

// lockKey is the Redlock key of one step of one analysis: redlock:<id>:<step>.
func lockKey(id, step string) string { return lock.Key(id, step) }

// Acquisition pacing: contenders for one analysis retry every ~25 ms for up to ~50 s (the
// request's own deadline usually ends the wait first), so that a busy analysis queues its
// writers instead of failing them.
const (
	lockRetryDelay = 25 * time.Millisecond
	lockTries      = 2000
)

// pkgLeaser adapts pkg/lock's Locker to the storage's leaser.
type pkgLeaser struct{ l *lock.Locker }

func (p pkgLeaser) acquire(ctx context.Context, key string) (lease, error) {
	ls, err := p.l.Acquire(ctx, key)
	if err != nil {
		return nil, err
	}
	return ls, nil
}

func newRedlockLeaser(cfg Config) (leaser, error) {
	opts := []lock.Option{lock.WithTTL(cfg.LockTTL), lock.WithAnyTTL(), lock.WithFencing(true),
		lock.WithTries(lockTries), lock.WithRetryDelay(lockRetryDelay)}
	if cfg.Host != "" {
		opts = append(opts, lock.WithHost(cfg.Host))
	}
	l, err := lock.New(cfg.Masters, opts...)
	if err != nil {
		return nil, err
	}
	return pkgLeaser{l: l}, nil
}
