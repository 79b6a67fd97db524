package lock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-redsync/redsync/v4"
	rsredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
)

// ErrNotAcquired says the lock could not be acquired: another holder has it, or not enough
// masters answered. The wrapped error tells which.
var ErrNotAcquired = errors.New("lock: not acquired")

// ErrLost says a held lease was lost: a renewal did not reach a quorum of masters, or the
// lease's validity ran out before a renewal succeeded. The holder's work must stop.
var ErrLost = errors.New("lock: lease lost")

// ErrReleased is the cause of a lease's context after Release. It wraps context.Canceled.
var ErrReleased = fmt.Errorf("lock: lease released: %w", context.Canceled)

// Locker acquires Redlock leases over 1..N independent Redis masters. It is safe for concurrent
// use; one Locker serves any number of keys.
type Locker struct {
	masters []redis.UniversalClient
	rs      *redsync.Redsync
	cfg     config
	quorum  int
}

// New returns a Locker over masters (one client per independent master, never a replica).
// It fails when no master is given or an option is out of range (a TTL outside MinTTL-MaxTTL
// without WithAnyTTL, a renewal interval not shorter than the TTL).
func New(masters []redis.UniversalClient, opts ...Option) (*Locker, error) {
	cfg, err := buildConfig(len(masters), opts)
	if err != nil {
		return nil, err
	}
	pools := make([]rsredis.Pool, len(masters))
	for i, m := range masters {
		if m == nil {
			return nil, fmt.Errorf("lock: master #%d is nil", i)
		}
		pools[i] = goredis.NewPool(m)
	}
	return &Locker{
		masters: append([]redis.UniversalClient(nil), masters...),
		rs:      redsync.New(pools...),
		cfg:     cfg,
		quorum:  Quorum(len(masters)),
	}, nil
}

// TTL returns the lock TTL this Locker writes.
func (l *Locker) TTL() time.Duration { return l.cfg.ttl }

// Masters returns how many masters the Locker uses.
func (l *Locker) Masters() int { return len(l.masters) }

// Acquire takes the lock on key, retrying up to the configured number of tries with a jittered
// delay. It returns ErrNotAcquired (wrapping the last cause) when every try failed, or ctx's
// error when ctx ended first. The lease renews itself until Release or until ctx ends.
func (l *Locker) Acquire(ctx context.Context, key string) (*Lease, error) {
	return l.acquire(ctx, key, l.cfg.tries)
}

// TryAcquire makes one acquisition attempt; it returns ErrNotAcquired at once when the lock is
// held elsewhere.
func (l *Locker) TryAcquire(ctx context.Context, key string) (*Lease, error) {
	return l.acquire(ctx, key, 1)
}

func (l *Locker) acquire(ctx context.Context, key string, tries int) (*Lease, error) {
	if key == "" {
		return nil, errors.New("lock: empty key")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	holder := l.cfg.holderFor()
	value := holder.String()
	m := l.rs.NewMutex(key,
		redsync.WithExpiry(l.cfg.ttl),
		redsync.WithTries(tries),
		redsync.WithRetryDelayFunc(func(int) time.Duration { return l.cfg.delay() }),
		redsync.WithGenValueFunc(func() (string, error) { return value, nil }),
		redsync.WithDriftFactor(DriftFactor),
	)
	var fenceReadc chan fenceRead
	if l.cfg.fencing {
		// The counter is read while the lock is being taken; fence writes the token only
		// once the lock is held.
		fenceReadc = make(chan fenceRead, 1)
		go func() { fenceReadc <- l.readFence(ctx, key) }()
	}
	if err := m.LockContext(ctx); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			// redsync's own undo used the ended context: remove what an attempt in flight
			// may have set.
			_, _, _ = l.compareAndDelete(ctx, key, value)
			return nil, cerr
		}
		return nil, fmt.Errorf("%w: %s: %w", ErrNotAcquired, key, permission(err))
	}
	var token int64
	if l.cfg.fencing {
		t, err := l.fence(ctx, key, <-fenceReadc)
		if err == nil && !time.Now().Before(m.Until()) {
			err = errors.New("lock validity ran out while taking the fencing token")
		}
		if err != nil {
			_, _, _ = l.compareAndDelete(ctx, key, value)
			return nil, fmt.Errorf("%w: %s: %w", ErrNotAcquired, key, permission(err))
		}
		token = t
	}
	return newLease(ctx, l, m, key, holder, token), nil
}

// compareAndDelete is redlock-rb's and redsync's unlock: delete key only where it still holds
// value. It is sent to every master, including those that did not answer the acquisition, and
// returns once every master has answered, bounded in time even when ctx is already done. deleted counts masters where the value was deleted, gone
// those where the key held another value or nothing.
func (l *Locker) compareAndDelete(ctx context.Context, key, value string) (deleted, gone int, err error) {
	isDeleted := func(r reply[int64]) bool { return r.err == nil && r.val == 1 }
	// Every master's answer is waited for (up to the release timeout), not just a quorum's: a
	// process that exits right after Release would cut the minority's deletes short and leave
	// debris there until the TTL (redsync waits for every pool too).
	rs := round(context.WithoutCancel(ctx), l.masters, l.releaseTimeout(), func(ctx context.Context, c redis.UniversalClient) (int64, error) {
		return delIfValue.Run(ctx, c, []string{key}, value).Int64()
	}, nil)
	for _, r := range rs {
		switch {
		case isDeleted(r):
			deleted++
		case r.err == nil:
			gone++
		}
	}
	return deleted, gone, masterErrors(rs)
}

// delIfValue deletes KEYS[1] when it holds ARGV[1]: 1 deleted, 0 another value, -1 no key.
var delIfValue = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then return redis.call('DEL', KEYS[1]) end
if v == false then return -1 end
return 0
`)

// releaseTimeout bounds Release: long enough for a slow master, short against a hung one.
func (l *Locker) releaseTimeout() time.Duration {
	d := l.cfg.ttl / 5
	if d < 500*time.Millisecond {
		d = 500 * time.Millisecond
	}
	return d
}
