package sandbox

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/osctl/osctl/pkg/lock"
)

// redlockRbLocks are the locks of mode redlock-nofence: what a Rails app gets from redlock-rb's
// lock_manager.lock(key, ttl) and nothing else. The lease is redlock's (pkg/lock on the same
// masters: the key redlock:<id>:analysis_zip, the TTL, a quorum, the drift, the holder values,
// the compare-and-delete unlock that leaves a newer holder's lock alone), but it is never
// renewed, it carries no fencing token, and nothing tells the work it guards that it ran out: a
// holder stalled past the TTL goes on writing after another replica took the lock.
//
// Two things are the sandbox's, not redlock-rb's defaults: the acquisition pacing is redlock
// mode's (lockTries, lockRetryDelay), so the two modes differ only in what the lease does once
// held; and a lock not taken fails the request, as redlock-rb's lock! raises (an app whose block
// went on without the lock would race more, not less).
type redlockRbLocks struct {
	l    *lock.Locker
	logf func(string, ...any)
}

func newRedlockRbLocks(cfg Config) (*redlockRbLocks, error) {
	l, err := newLocker(cfg, lock.WithFencing(false), lock.WithoutRenewal())
	if err != nil {
		return nil, err
	}
	return &redlockRbLocks{l: l, logf: cfg.Logf}, nil
}

// lock takes the lease; the work it guards runs on a context that neither the lease's end nor
// its request's end cancels (Rails finishes an action whose client went away).
func (l *redlockRbLocks) lock(ctx context.Context, id, what string) (context.Context, func(), error) {
	key := lockKey(id, zipStep)
	ls, err := l.l.Acquire(ctx, key)
	if err != nil {
		return nil, nil, fmt.Errorf("acquiring %s: %w", key, err)
	}
	return context.WithoutCancel(ctx), func() {
		late := time.Since(ls.Validity())
		err := ls.Release(context.Background())
		switch {
		case late >= 0 || errors.Is(err, lock.ErrLost):
			l.logf("LOCK EXPIRED WHILE HELD %s (%s): the %s of analysis %s went on %v past the lease's validity (redlock-nofence: no renewal, no fencing)",
				key, ls.Value(), what, id, late.Round(time.Millisecond))
		case err != nil:
			l.logf("release of %s (%s) after %s: %v", key, ls.Value(), what, err)
		}
	}, nil
}
