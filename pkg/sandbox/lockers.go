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
	l, err := newLocker(cfg, lock.WithFencing(true))
	if err != nil {
		return nil, err
	}
	return pkgLeaser{l: l}, nil
}

// newLocker is the sandbox's pkg/lock Locker on cfg's masters, with its TTL, holder host and
// acquisition pacing, and opts.
func newLocker(cfg Config, opts ...lock.Option) (*lock.Locker, error) {
	opts = append([]lock.Option{lock.WithTTL(cfg.LockTTL), lock.WithAnyTTL(), lock.WithTries(lockTries), lock.WithRetryDelay(lockRetryDelay)}, opts...)
	if cfg.Host != "" {
		opts = append(opts, lock.WithHost(cfg.Host))
	}
	return lock.New(cfg.Masters, opts...)
}
