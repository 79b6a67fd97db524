package sandbox

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/go-redsync/redsync/v4"
	rsredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"

	"github.com/osctl/osctl/pkg/lock"
)

// redlockRbLocks are the locks of mode redlock-nofence: what a Rails app gets from redlock-rb's
// lock_manager.lock(key, ttl) { ... } and nothing else. The lease is redlock's (the key
// redlock:<id>:analysis_zip, the TTL, a quorum of the masters, the same acquisition pacing and
// holder values), but it is never renewed, it carries no fencing token, and nothing tells the
// work it guards that it ran out: a holder stalled past the TTL goes on writing after another
// replica took the lock. The unlock is redlock-rb's compare-and-delete, which leaves a newer
// holder's lock alone.
type redlockRbLocks struct {
	rs   *redsync.Redsync
	ttl  time.Duration
	host string
	logf func(string, ...any)
}

func newRedlockRbLocks(cfg Config) *redlockRbLocks {
	pools := make([]rsredis.Pool, len(cfg.Masters))
	for i, m := range cfg.Masters {
		pools[i] = goredis.NewPool(m)
	}
	host := cfg.Host
	if host == "" {
		host = lock.DefaultHost()
	}
	return &redlockRbLocks{rs: redsync.New(pools...), ttl: cfg.LockTTL, host: host, logf: cfg.Logf}
}

// lock takes the lease; the work it guards runs on a context that its request's end does not
// cancel either (Rails finishes an action whose client went away).
func (l *redlockRbLocks) lock(ctx context.Context, id, what string) (context.Context, func(), error) {
	key := lockKey(id, zipStep)
	value := lock.NewHolder(l.host).String()
	m := l.rs.NewMutex(key,
		redsync.WithExpiry(l.ttl),
		redsync.WithTries(lockTries),
		redsync.WithRetryDelayFunc(func(int) time.Duration { return lockRetryDelay/2 + rand.N(lockRetryDelay) }),
		redsync.WithGenValueFunc(func() (string, error) { return value, nil }),
		redsync.WithDriftFactor(lock.DriftFactor),
	)
	if err := m.LockContext(ctx); err != nil {
		if ctx.Err() != nil {
			// An attempt in flight when ctx ended may have set the key: remove it where it
			// still holds this value.
			_, _ = l.unlock(m) // best effort: the acquire already failed
		}
		return nil, nil, fmt.Errorf("acquiring %s: %w", key, err)
	}
	return context.WithoutCancel(ctx), func() {
		late := time.Since(m.Until())
		ok, err := l.unlock(m)
		switch {
		case late >= 0:
			l.logf("LOCK EXPIRED WHILE HELD %s (%s): the %s of analysis %s went on %v past the lease's validity (redlock-nofence: no renewal, no fencing)",
				key, value, what, id, late.Round(time.Millisecond))
		case !ok:
			l.logf("release of %s (%s) after %s: %v", key, value, what, err)
		}
	}, nil
}

// unlock deletes the lock where it still holds m's value, bounded in time.
func (l *redlockRbLocks) unlock(m *redsync.Mutex) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	return m.UnlockContext(ctx)
}
