package lock

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-redsync/redsync/v4"
)

// Lease is one held lock. Its Context is cancelled at once when the lock is lost (a renewal did
// not reach a quorum, or the validity ran out), when Release is called, or when the context
// given to Acquire ends. Do the guarded work under Context and stop when it is done.
type Lease struct {
	k      *keeper
	locker *Locker
	ext    *redsync.Mutex // renews (made on the first renewal; used by the keeper only)
	key    string
	holder Holder
	value  string
	token  int64

	once       sync.Once
	releaseErr error
}

func newLease(ctx context.Context, l *Locker, m *redsync.Mutex, key string, h Holder, token int64) *Lease {
	ls := &Lease{locker: l, key: key, holder: h, value: m.Value(), token: token}
	ls.k = startKeeper(ctx, m.Until(), l.cfg.renewEvery, ls.extend)
	return ls
}

// extend is called by the keeper, one renewal at a time, so the redsync mutex is never used
// concurrently. redsync's touch script compares the value before PEXPIRE, and PEXPIREs to the
// full TTL; it never re-creates a key that is gone.
func (ls *Lease) extend(ctx context.Context) (time.Time, error) {
	if ls.ext == nil {
		// Made on the first renewal (most leases are released before one). It decides as
		// soon as a quorum has answered, so that one hung master cannot hold a renewal until
		// the validity runs out; the masters that answer later still get the extension, as
		// the keeper does not cancel extend's context early.
		ls.ext = ls.locker.rs.NewMutex(ls.key,
			redsync.WithExpiry(ls.locker.cfg.ttl),
			redsync.WithValue(ls.value),
			redsync.WithDriftFactor(DriftFactor),
			redsync.WithFailFast(true),
		)
	}
	ok, err := ls.ext.ExtendContext(ctx)
	if !ok {
		if err == nil {
			err = errors.New("renewal did not reach a quorum")
		}
		var taken *redsync.ErrTaken
		if errors.As(err, &taken) {
			err = fmt.Errorf("the value is gone or replaced on masters %v", taken.Nodes)
		}
		return time.Time{}, fmt.Errorf("renewal reached fewer than %d of %d masters: %w", ls.locker.quorum, len(ls.locker.masters), permission(err))
	}
	return ls.ext.Until(), nil
}

// Context is cancelled when the lease ends for any reason; context.Cause tells which (Err).
func (ls *Lease) Context() context.Context { return ls.k.ctx }

// Err returns nil while the lease is held; an error wrapping ErrLost after a loss; ErrReleased
// (which wraps context.Canceled) after Release; the acquisition context's cause after it ended.
func (ls *Lease) Err() error { return ls.k.Err() }

// Key returns the lock key.
func (ls *Lease) Key() string { return ls.key }

// Value returns the value written on the masters (Holder().String()).
func (ls *Lease) Value() string { return ls.value }

// Holder returns who holds the lease.
func (ls *Lease) Holder() Holder { return ls.holder }

// Token returns the fencing token: larger than the token of every earlier acquisition of this
// key. It is 0 when fencing is off.
func (ls *Lease) Token() int64 { return ls.token }

// Validity returns until when the lock is known held (renewals move it forward).
func (ls *Lease) Validity() time.Time { return ls.k.Validity() }

// Release stops renewal, cancels Context, and deletes the lock on every master where it still
// holds this lease's value (compare-and-delete), including masters that did not answer the
// acquisition. It finishes within a bounded time even when ctx is already cancelled (so
// Release(lease.Context()) works). It returns nil when the lock was held until released, an
// error wrapping ErrLost when it had been lost before (the guarded work may have overlapped
// another holder's), or the masters' errors when fewer than a quorum confirmed the delete.
// Calling it again returns the same result.
func (ls *Lease) Release(ctx context.Context) error {
	ls.once.Do(func() { ls.releaseErr = ls.release(ctx) })
	return ls.releaseErr
}

func (ls *Lease) release(ctx context.Context) error {
	ls.k.stop()
	prior := ls.k.Err()
	ls.k.cancel(ErrReleased)
	deleted, gone, err := ls.locker.compareAndDelete(ctx, ls.key, ls.value)
	q := ls.locker.quorum
	switch {
	case prior != nil && errors.Is(prior, ErrLost):
		return prior
	case deleted >= q:
		return nil
	case gone > len(ls.locker.masters)-q:
		return fmt.Errorf("%w: %s was no longer held on a quorum at release (deleted on %d of %d masters)", ErrLost, ls.key, deleted, len(ls.locker.masters))
	default:
		return fmt.Errorf("lock: releasing %s: deleted on %d of %d masters: %w", ls.key, deleted, len(ls.locker.masters), permission(err))
	}
}
