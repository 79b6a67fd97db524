package nemesis

import (
	"context"
	"errors"
	"time"
)

// HeldLock is the lock a holder kind found held, and who held it.
type HeldLock struct {
	// Key is the lock's key (redlock:<analysis>:<step>); Holder its value's holder, host:pid
	// (or the pod).
	Key    string `json:"key"`
	Holder string `json:"holder"`
	// HeldFor is how long the lock had been held when the fault hit: since the value was first
	// seen, or since it was taken or last renewed by its TTL left (the longer).
	HeldFor Duration `json:"held_for"`
}

// HolderInjector is an Injector that can also hit the holder of a lock.
type HolderInjector interface {
	Injector
	// InjectHolder waits, until ctx ends, for a replica that holds a lock, then injects f into
	// it. It returns ErrNoHolder when ctx ended before any lock was seen held by one.
	InjectHolder(ctx context.Context, f Fault) (target string, held HeldLock, resume func() error, err error)
}

// ErrNoHolder is InjectHolder's error when no lock was held by a replica it can hit.
var ErrNoHolder = errors.New("no lock held by a replica")

// Held is one lock value read on a master: its key, holder and TTL left.
type Held struct {
	Key, Value string
	// Host and PID are the holder's, from an osctl holder value; Namespace when it names one.
	Host, Namespace string
	PID             int
	TTL             time.Duration
}

// Seen remembers when each lock value was first seen, so that a holder kind can say how long
// a lock had been held.
type Seen map[string]time.Time

// HeldFor is how long h had been held at now: since its value was first seen, or the lock's
// full TTL less what is left (the longer; ttl 0 when unknown).
func (s Seen) HeldFor(h Held, ttl time.Duration, now time.Time) time.Duration {
	d := time.Duration(0)
	if t, ok := s[h.Value]; ok {
		d = now.Sub(t)
	}
	if ttl > 0 && h.TTL > 0 && ttl-h.TTL > d {
		d = ttl - h.TTL
	}
	return d
}

// Note records the values of held as seen at now (the first time only).
func (s Seen) Note(held []Held, now time.Time) {
	for _, h := range held {
		if _, ok := s[h.Value]; !ok {
			s[h.Value] = now
		}
	}
}

// PollEvery is how often a holder kind reads the masters while it waits for a holder.
const PollEvery = 2 * time.Millisecond
