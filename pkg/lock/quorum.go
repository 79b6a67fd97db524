package lock

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Quorum is the number of masters that must agree: n/2+1.
func Quorum(n int) int { return n/2 + 1 }

// errNoAnswer marks a master that had not answered when a round was decided.
var errNoAnswer = errors.New("no answer yet")

// reply is one master's answer to one round of commands.
type reply[T any] struct {
	val T
	err error
}

// round runs fn against every master in parallel and returns the answers in master order as
// soon as decided(answers so far) is true, all masters answered, timeout passed, or ctx ended
// (the timeout does not rely on the client honouring context deadlines). The calls share one
// context bounded by timeout and detached from ctx's cancellation, so that a round decided
// early still reaches the masters that have not answered yet (a release still deletes
// everywhere) without tearing down their connections. Masters that had not answered carry
// errNoAnswer.
func round[T any](ctx context.Context, masters []redis.UniversalClient, timeout time.Duration,
	fn func(context.Context, redis.UniversalClient) (T, error), decided func([]reply[T]) bool) []reply[T] {
	out := make([]reply[T], len(masters))
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	if len(masters) == 1 {
		out[0].val, out[0].err = fn(cctx, masters[0])
		cancel()
		return out
	}
	type indexed struct {
		i int
		r reply[T]
	}
	ch := make(chan indexed, len(masters))
	finish := cancel // called by the last call to return, which may be after round has returned
	var pending atomic.Int32
	pending.Store(int32(len(masters)))
	for i, m := range masters {
		out[i].err = errNoAnswer
		go func() {
			v, err := fn(cctx, m)
			ch <- indexed{i, reply[T]{v, err}}
			if pending.Add(-1) == 0 {
				finish()
			}
		}()
	}
	for range masters {
		select {
		case a := <-ch:
			out[a.i] = a.r
			if decided != nil && decided(out) {
				return out
			}
		case <-cctx.Done():
			// The timeout, or the last call finished (it sends before it cancels): take
			// every answer that is already in.
			for {
				select {
				case a := <-ch:
					out[a.i] = a.r
				default:
					return out
				}
			}
		case <-ctx.Done():
			return out
		}
	}
	return out
}

// answered counts the masters that answered without error.
func answered[T any](rs []reply[T]) int {
	n := 0
	for _, r := range rs {
		if r.err == nil {
			n++
		}
	}
	return n
}

// masterErrors joins the errors of the masters that failed, naming each master by index.
func masterErrors[T any](rs []reply[T]) error {
	var errs []error
	for i, r := range rs {
		if r.err != nil {
			errs = append(errs, fmt.Errorf("master #%d: %w", i, r.err))
		}
	}
	return errors.Join(errs...)
}
