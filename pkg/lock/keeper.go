package lock

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// errValidityExpired is the cause of a loss when no renewal succeeded before the validity ran out.
var errValidityExpired = errors.New("validity ran out before a renewal succeeded")

// keeper renews one lease (a lock or a permit) in the background and cancels the holder's
// context the moment the lease can no longer be trusted. It runs on two timers rather than a
// goroutine of its own, so a lease that is released before its first renewal costs no more
// than two timers: one for the next renewal and a watchdog at the validity's end, which
// declares the lease lost even while a renewal is still waiting for a hung master.
type keeper struct {
	ctx      context.Context // the holder's context: child of the acquisition context
	cancel   context.CancelCauseFunc
	rctx     context.Context // renewal's context: ends with ctx or on stop
	stopRen  context.CancelFunc
	every    time.Duration
	extend   extendFunc
	validity atomic.Int64 // unix nanoseconds until which the lease is known held
	renewing atomic.Bool  // an extension is waiting for the masters

	mu      sync.Mutex
	stopped bool
	renewT  *time.Timer
	expireT *time.Timer
}

// extendFunc extends the lease on the masters and returns its new validity. ctx ends at the
// current validity.
type extendFunc func(ctx context.Context) (time.Time, error)

// startKeeper starts renewing every `every` (0: never) until stop, the end of parent, or a loss.
func startKeeper(parent context.Context, validity time.Time, every time.Duration, extend extendFunc) *keeper {
	ctx, cancel := context.WithCancelCause(parent)
	rctx, stopRen := context.WithCancel(ctx)
	k := &keeper{ctx: ctx, cancel: cancel, rctx: rctx, stopRen: stopRen, every: every, extend: extend}
	k.validity.Store(validity.UnixNano())
	k.mu.Lock()
	k.expireT = time.AfterFunc(time.Until(validity), k.expired)
	if every > 0 { // 0: never renewed (WithoutRenewal)
		k.renewT = time.AfterFunc(every, k.renew)
	}
	k.mu.Unlock()
	return k
}

// renew runs on the renewal timer's goroutine: one extension, then the next one is scheduled.
func (k *keeper) renew() {
	if k.rctx.Err() != nil {
		return // released, lost, or the holder's context ended: renewal is over
	}
	// A renewal may take until the validity ends, not longer (the watchdog fires then anyway).
	// Its context is not cancelled when extend returns: masters that had not answered when the
	// quorum was reached still get their extension (it ends at the deadline, or on stop).
	ectx, cancel := context.WithDeadline(k.rctx, k.Validity())
	context.AfterFunc(ectx, cancel)
	k.renewing.Store(true)
	until, err := k.extend(ectx)
	k.renewing.Store(false)
	if k.rctx.Err() != nil {
		return
	}
	if err == nil && !time.Now().Before(until) {
		err = errValidityExpired
	}
	if err != nil {
		if time.Now().After(k.Validity()) {
			err = fmt.Errorf("%w (%w)", errValidityExpired, err)
		}
		k.lose(err)
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stopped || k.rctx.Err() != nil {
		return
	}
	k.validity.Store(until.UnixNano())
	k.expireT.Reset(time.Until(until))
	k.renewT.Reset(k.every)
}

// expired runs on the watchdog timer at the end of the validity.
func (k *keeper) expired() {
	if k.renewing.Load() {
		k.lose(fmt.Errorf("%w (a renewal is still waiting for the masters)", errValidityExpired))
		return
	}
	k.lose(errValidityExpired)
}

// lose cancels the holder's context with a cause wrapping ErrLost and ends renewal. When the
// context already ended (release, the holder's own context) the first cause stays.
func (k *keeper) lose(cause error) {
	k.cancel(fmt.Errorf("%w: %w", ErrLost, cause))
	k.stop()
}

// stop ends renewal and the watchdog; the holder's context is left as it is. An extension in
// flight is abandoned (its context ends).
func (k *keeper) stop() {
	k.mu.Lock()
	k.stopped = true
	if k.renewT != nil {
		k.renewT.Stop()
	}
	k.expireT.Stop()
	k.mu.Unlock()
	k.stopRen()
}

// Validity returns until when the lease is known held.
func (k *keeper) Validity() time.Time { return time.Unix(0, k.validity.Load()) }

// Err returns nil while the lease is held, an error wrapping ErrLost after a loss, ErrReleased
// after release, or the acquisition context's cause after it ended.
func (k *keeper) Err() error {
	if k.ctx.Err() == nil {
		return nil
	}
	return context.Cause(k.ctx)
}
