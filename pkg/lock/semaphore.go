package lock

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// SemaphorePrefix starts the keys of every semaphore: osctl:sem:<name>:permits (a sorted set of
// permit ids scored by lease expiry in each master's clock) and osctl:sem:<name>:admit (the
// short Redlock that serialises admissions).
const SemaphorePrefix = NamespacePrefix + "sem:"

// ErrNoPermit says the semaphore is full.
var ErrNoPermit = errors.New("lock: no permit available")

// admitTTL is the TTL of the admission lock: it is held for a few round trips only.
const admitTTL = 3 * time.Second

// Semaphore admits at most limit holders at a time across processes and hosts. Each permit is a
// lease that renews itself like a lock; a permit whose holder died expires after the TTL and
// its place is reclaimed.
//
// Admissions are serialised by a Redlock on osctl:sem:<name>:admit. Under it the semaphore reads
// the live permits from the masters (at least a quorum must answer), counts every permit that
// may be held (every held permit is on a quorum, so every quorum of answers sees it), and admits
// only when that count is below the limit, writing the new permit to a quorum or rolling it
// back everywhere. Counting per master is not
// enough: with limit 2 on three masters, permits on {1,2}, {2,3} and {1,3} fill no master beyond
// 2, yet three permits would be held.
type Semaphore struct {
	masters []redis.UniversalClient
	name    string
	key     string
	limit   int
	cfg     config
	quorum  int
	admit   *Locker
}

// NewSemaphore returns the semaphore name with limit permits over masters. Options: WithTTL
// (the permit lease), WithAnyTTL, WithRenewEvery, WithHost/WithHolder (permit ids),
// WithRetryDelay (Acquire's wait between attempts).
func NewSemaphore(masters []redis.UniversalClient, name string, limit int, opts ...Option) (*Semaphore, error) {
	if name == "" {
		return nil, errors.New("lock: empty semaphore name")
	}
	if limit < 1 {
		return nil, fmt.Errorf("lock: semaphore limit %d must be at least 1", limit)
	}
	cfg, err := buildConfig(len(masters), opts)
	if err != nil {
		return nil, err
	}
	admit, err := New(masters, WithTTL(admitTTL), WithAnyTTL(), WithFencing(false), WithHost(cfg.host),
		WithTries(40), WithRetryDelay(10*time.Millisecond))
	if err != nil {
		return nil, err
	}
	return &Semaphore{
		masters: admit.masters, name: name, key: SemaphorePrefix + name + ":permits",
		limit: limit, cfg: cfg, quorum: Quorum(len(masters)), admit: admit,
	}, nil
}

// Name returns the semaphore's name; Limit its number of permits.
func (s *Semaphore) Name() string { return s.name }

// Limit returns the number of permits.
func (s *Semaphore) Limit() int { return s.limit }

// Key returns the sorted set holding the permits.
func (s *Semaphore) Key() string { return s.key }

// serverNow is the Lua prelude that reads the master's own clock in milliseconds.
const serverNow = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// semLive drops expired permits and returns the live ones.
var semLive = redis.NewScript(serverNow + `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZRANGE', KEYS[1], 0, -1)
`)

// semLiveRO returns the live permits without changing anything.
var semLiveRO = redis.NewScript(serverNow + `
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
`)

// semAdd adds (or renews) permit ARGV[1] for ARGV[2] ms and keeps the set alive at least as long.
var semAdd = redis.NewScript(serverNow + `
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1
`)

// semRenew renews permit ARGV[1] only where it is still live.
var semRenew = redis.NewScript(serverNow + `
local ttl = tonumber(ARGV[2])
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not s then return 0 end
if tonumber(s) <= now then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 0
end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1
`)

// TryAcquire takes a permit when one is free and returns ErrNoPermit when the semaphore is full.
// It may wait briefly for the admission lock.
func (s *Semaphore) TryAcquire(ctx context.Context) (*Permit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	adm, err := s.admit.Acquire(ctx, SemaphorePrefix+s.name+":admit")
	if err != nil {
		return nil, err
	}
	defer adm.Release(ctx) //nolint:errcheck // the admission lock expires by itself; the permit was already checked against its validity
	return s.admitOne(ctx, adm)
}

func (s *Semaphore) admitOne(ctx context.Context, adm *Lease) (*Permit, error) {
	// Every held permit is live on a quorum, so every quorum of answers sees each of them. The
	// round waits for every master (within the timeout) so that an entry left on a minority,
	// such as a permit whose release has not reached every master yet, is not counted.
	reads := round(adm.Context(), s.masters, s.cfg.opTimeout(), func(ctx context.Context, c redis.UniversalClient) ([]string, error) {
		return semLive.Run(ctx, c, []string{s.key}).StringSlice()
	}, nil)
	held, err := s.held(reads)
	if err != nil {
		return nil, err
	}
	if held >= s.limit {
		return nil, fmt.Errorf("%w: semaphore %s holds %d of %d", ErrNoPermit, s.name, held, s.limit)
	}
	id := s.cfg.holderFor().String()
	start := time.Now()
	ttlMS := s.cfg.ttl.Milliseconds()
	// Decided early only on success: a failed admission waits for every master before it
	// rolls back, so that no late write outlives the rollback.
	writes := round(adm.Context(), s.masters, s.cfg.opTimeout(), func(ctx context.Context, c redis.UniversalClient) (int64, error) {
		return semAdd.Run(ctx, c, []string{s.key}, id, ttlMS).Int64()
	}, func(rs []reply[int64]) bool { return countOK(rs) >= s.quorum })
	ok := countOK(writes)
	validity := start.Add(s.cfg.ttl - s.cfg.drift())
	now := time.Now()
	if ok < s.quorum || !now.Before(validity) || !now.Before(adm.Validity()) || adm.Err() != nil {
		_, _ = s.remove(ctx, id) // best effort: an admission that did not count must not linger
		err := masterErrors(writes)
		if adm.Err() != nil {
			err = errors.Join(err, adm.Err())
		}
		return nil, fmt.Errorf("lock: semaphore %s: admission reached %d of %d masters, need %d: %w", s.name, ok, len(s.masters), s.quorum, err)
	}
	p := &Permit{sem: s, id: id}
	p.k = startKeeper(ctx, validity, s.cfg.renewEvery, p.extend)
	return p, nil
}

// Acquire waits for a permit until ctx ends, trying again after a jittered delay while the
// semaphore is full, the admission lock is busy, or too few masters answered (a master may be
// restarting). When ctx ends it returns ctx's error joined with the last attempt's.
func (s *Semaphore) Acquire(ctx context.Context) (*Permit, error) {
	for {
		p, err := s.TryAcquire(ctx)
		if err == nil {
			return p, nil
		}
		if cerr := ctx.Err(); cerr != nil {
			return nil, fmt.Errorf("lock: semaphore %s: waiting for a permit: %w (last: %w)", s.name, cerr, err)
		}
		t := time.NewTimer(s.cfg.delay())
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("lock: semaphore %s: waiting for a permit: %w (last: %w)", s.name, ctx.Err(), err)
		case <-t.C:
		}
	}
}

// Count returns how many permits are held now: live (not expired) on a quorum of masters. When
// a master does not answer, a permit is counted if it may be held (the count errs high).
func (s *Semaphore) Count(ctx context.Context) (int, error) {
	reads := round(ctx, s.masters, s.cfg.opTimeout(), func(ctx context.Context, c redis.UniversalClient) ([]string, error) {
		return semLiveRO.Run(ctx, c, []string{s.key}).StringSlice()
	}, nil)
	return s.held(reads)
}

// held counts the permits that may be held, from the live permits each master reported. A held
// permit is live on at least a quorum q of the n masters, so among a answers it shows up at
// least q-(n-a) times; counting every id seen that often counts every held permit, and leaves
// out entries on too few masters to be held. At least a quorum must have answered.
func (s *Semaphore) held(reads []reply[[]string]) (int, error) {
	n, q := len(s.masters), s.quorum
	a := answered(reads)
	if a < q {
		return 0, fmt.Errorf("lock: semaphore %s: read reached %d of %d masters, need %d: %w", s.name, a, n, q, masterErrors(reads))
	}
	seen := map[string]int{}
	for _, r := range reads {
		if r.err == nil {
			for _, id := range r.val {
				seen[id]++
			}
		}
	}
	need := q - (n - a)
	held := 0
	for _, c := range seen {
		if c >= need {
			held++
		}
	}
	return held, nil
}

// countOK counts the masters that answered 1.
func countOK(rs []reply[int64]) int {
	n := 0
	for _, r := range rs {
		if r.err == nil && r.val == 1 {
			n++
		}
	}
	return n
}

// remove deletes permit id on every master, bounded in time even when ctx is done. It returns
// once a quorum answered; the other masters still get the command.
func (s *Semaphore) remove(ctx context.Context, id string) (int, error) {
	rs := round(context.WithoutCancel(ctx), s.masters, s.admit.releaseTimeout(), func(ctx context.Context, c redis.UniversalClient) (int64, error) {
		return c.ZRem(ctx, s.key, id).Result()
	}, func(rs []reply[int64]) bool { return answered(rs) >= s.quorum })
	return answered(rs), masterErrors(rs)
}

// Permit is one admission to a Semaphore. Its Context is cancelled when the permit is lost (a
// renewal did not reach a quorum or its validity ran out), on Release, or when the context given
// to Acquire ends.
type Permit struct {
	sem *Semaphore
	id  string
	k   *keeper

	once       sync.Once
	releaseErr error
}

// ID returns the permit's id (a holder value: who holds it).
func (p *Permit) ID() string { return p.id }

// Context is cancelled when the permit ends for any reason.
func (p *Permit) Context() context.Context { return p.k.ctx }

// Err returns nil while the permit is held, an error wrapping ErrLost after a loss, ErrReleased
// after Release.
func (p *Permit) Err() error { return p.k.Err() }

// Validity returns until when the permit is known held.
func (p *Permit) Validity() time.Time { return p.k.Validity() }

func (p *Permit) extend(ctx context.Context) (time.Time, error) {
	s := p.sem
	start := time.Now()
	timeout := s.cfg.ttl
	if d, ok := ctx.Deadline(); ok {
		timeout = time.Until(d)
	}
	rs := round(ctx, s.masters, timeout, func(ctx context.Context, c redis.UniversalClient) (int64, error) {
		return semRenew.Run(ctx, c, []string{s.key}, p.id, s.cfg.ttl.Milliseconds()).Int64()
	}, func(rs []reply[int64]) bool {
		return decidedBy(rs, func(r reply[int64]) bool { return r.err == nil && r.val == 1 }, s.quorum)
	})
	ok := countOK(rs)
	if ok < s.quorum {
		err := masterErrors(rs)
		if err == nil {
			err = errors.New("permit no longer live")
		}
		return time.Time{}, fmt.Errorf("permit renewal reached %d of %d masters, need %d: %w", ok, len(s.masters), s.quorum, err)
	}
	return start.Add(s.cfg.ttl - s.cfg.drift()), nil
}

// Release stops renewal, cancels Context and removes the permit on every master. Like
// Lease.Release it finishes in bounded time even when ctx is cancelled, returns an error
// wrapping ErrLost when the permit had been lost before, and returns the same result when
// called again.
func (p *Permit) Release(ctx context.Context) error {
	p.once.Do(func() {
		p.k.stop()
		prior := p.k.Err()
		p.k.cancel(ErrReleased)
		n, err := p.sem.remove(ctx, p.id)
		switch {
		case prior != nil && errors.Is(prior, ErrLost):
			p.releaseErr = prior
		case n < p.sem.quorum:
			p.releaseErr = fmt.Errorf("lock: releasing permit %s of %s: %w", p.id, p.sem.name, err)
		}
	})
	return p.releaseErr
}
