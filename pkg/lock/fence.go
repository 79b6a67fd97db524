package lock

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// FencePrefix starts the key of every fencing counter: osctl:fence:<lock key>.
const FencePrefix = NamespacePrefix + "fence:"

// FenceKey returns the fencing counter's key for a lock key.
func FenceKey(lockKey string) string { return FencePrefix + lockKey }

// fenceWriteTries bounds the write phase: each retry raises the candidate above every counter
// a master reported, so it only repeats while stale writers race it.
const fenceWriteTries = 5

// setIfGreater raises the counter to ARGV[1] only when that is larger than its value.
// It returns {1, new} when it raised the counter and {0, current} when it did not.
var setIfGreater = redis.NewScript(`
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if cur == nil then return redis.error_reply('fencing counter ' .. KEYS[1] .. ' is not an integer') end
local want = tonumber(ARGV[1])
if want > cur then
  redis.call('SET', KEYS[1], ARGV[1])
  return {1, want}
end
return {0, cur}
`)

// fenceRead is the outcome of reading a fencing counter from a quorum.
type fenceRead struct {
	highest int64
	err     error
}

// readFence reads the fencing counter of key from the masters and returns the largest value
// among the first quorum to answer.
func (l *Locker) readFence(ctx context.Context, key string) fenceRead {
	fk := FenceKey(key)
	q := l.quorum
	reads := round(ctx, l.masters, l.cfg.opTimeout(), func(ctx context.Context, c redis.UniversalClient) (int64, error) {
		s, err := c.Get(ctx, fk).Result()
		if errors.Is(err, redis.Nil) {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("fencing counter %s is not an integer", fk)
		}
		return v, nil
	}, func(rs []reply[int64]) bool {
		return decidedBy(rs, func(r reply[int64]) bool { return r.err == nil }, q)
	})
	var highest int64
	for _, r := range reads {
		if r.err == nil {
			highest = max(highest, r.val)
		}
	}
	if a := answered(reads); a < q {
		return fenceRead{err: fmt.Errorf("fencing: read of %s reached %d of %d masters, need %d: %w", fk, a, len(l.masters), q, masterErrors(reads))}
	}
	return fenceRead{highest: highest}
}

// fence issues the next fencing token for key while the lock is held, from read, the counter
// read from a quorum (Acquire issues that read alongside the lock's SET, to save a round trip;
// a failed read is done again here):
//
//  1. the largest counter of a quorum, plus one, is the candidate;
//  2. the candidate is written to every master with setIfGreater, which only raises a counter;
//     at least a quorum must be raised to exactly the candidate, otherwise it is retried with a
//     candidate above every counter the masters reported.
//
// The token is correct because of step 2 alone: every token issued earlier sits on a quorum,
// every quorum raised by this write overlaps it, and there the counter was below the candidate,
// so the new token is larger than every earlier one. The read only picks a candidate likely to
// succeed at once; a read that went stale while the lock was contended costs one more write.
// INCR on whatever majority answers is not enough: with counters 5,5,1 it hands out 6, then 7,
// then 7 again.
func (l *Locker) fence(ctx context.Context, key string, read fenceRead) (int64, error) {
	fk := FenceKey(key)
	n, q := len(l.masters), l.quorum
	if read.err != nil {
		read = l.readFence(ctx, key)
		if read.err != nil {
			return 0, read.err
		}
	}
	highest := read.highest
	raisedTo := func(want int64) func(reply[[2]int64]) bool {
		return func(r reply[[2]int64]) bool { return r.err == nil && r.val[0] == 1 && r.val[1] == want }
	}
	want := highest + 1
	var lastErr error
	for range fenceWriteTries {
		cand := want // stragglers of a decided round still read it: never the loop variable
		ok := raisedTo(cand)
		writes := round(ctx, l.masters, l.cfg.opTimeout(), func(ctx context.Context, c redis.UniversalClient) ([2]int64, error) {
			v, err := setIfGreater.Run(ctx, c, []string{fk}, cand).Int64Slice()
			if err != nil {
				return [2]int64{}, err
			}
			if len(v) != 2 {
				return [2]int64{}, fmt.Errorf("fencing: unexpected reply %v", v)
			}
			return [2]int64{v[0], v[1]}, nil
		}, func(rs []reply[[2]int64]) bool { return decidedBy(rs, ok, q) })
		raised := 0
		next := want
		for _, w := range writes {
			if ok(w) {
				raised++
			}
			if w.err == nil {
				next = max(next, w.val[1])
			}
		}
		if raised >= q {
			return want, nil
		}
		lastErr = fmt.Errorf("fencing: raising %s to %d reached %d of %d masters, need %d", fk, want, raised, n, q)
		if err := masterErrors(writes); err != nil {
			lastErr = fmt.Errorf("%w: %w", lastErr, err)
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		want = next + 1
	}
	return 0, lastErr
}

// decidedBy reports whether a round is decided: at least q answers are good, or so many are in
// and not good that q can no longer be reached.
func decidedBy[T any](rs []reply[T], good func(reply[T]) bool, q int) bool {
	g, bad := 0, 0
	for _, r := range rs {
		switch {
		case errors.Is(r.err, errNoAnswer):
		case good(r):
			g++
		default:
			bad++
		}
	}
	return g >= q || bad > len(rs)-q
}
