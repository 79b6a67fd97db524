package lock

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Defaults of a Locker.
const (
	// DefaultTries is how many acquisition attempts Acquire makes (redsync's default).
	DefaultTries = 32
	// DefaultRetryDelay is the mean of the jittered delay between attempts (50-250 ms, as redsync).
	DefaultRetryDelay = 150 * time.Millisecond
	// DriftFactor is the share of the TTL subtracted from every validity for clock drift
	// (redsync and redlock-rb use 1%).
	DriftFactor = 0.01
	// DriftMin is added to every drift allowance (redsync's and redlock-rb's 2 ms).
	DriftMin = 2 * time.Millisecond
	// RenewDivisor sets the default renewal interval of a held lease: every TTL/RenewDivisor.
	RenewDivisor = 3
)

// Option configures a Locker or a Semaphore.
type Option func(*config)

type config struct {
	ttl        time.Duration
	anyTTL     bool
	holder     *Holder
	host       string
	namespace  string
	nsSet      bool
	tries      int
	retryDelay time.Duration
	fencing    bool
	renewEvery time.Duration
	noRenewal  bool
}

func defaultConfig() config {
	return config{ttl: DefaultTTL, tries: DefaultTries, retryDelay: DefaultRetryDelay, fencing: true}
}

// WithTTL sets the lock's time to live on every master (default DefaultTTL). New refuses a TTL
// outside MinTTL-MaxTTL unless WithAnyTTL is also given.
func WithTTL(d time.Duration) Option { return func(c *config) { c.ttl = d } }

// WithAnyTTL allows any positive TTL (tests, or a service that knows why it needs one).
func WithAnyTTL() Option { return func(c *config) { c.anyTTL = true } }

// WithHolder makes every acquisition write h.String() as the lock value. By default each
// acquisition gets NewHolder(host) with a fresh random part; a fixed holder makes two
// acquisitions by the same process indistinguishable, so use it only when that is intended.
func WithHolder(h Holder) Option { return func(c *config) { hh := h; c.holder = &hh } }

// WithHost sets the host part of generated holder values (default DefaultHost(), read once by
// New).
func WithHost(host string) Option { return func(c *config) { c.host = host } }

// WithNamespace sets the Kubernetes namespace recorded in generated holder values, for a host
// that is a pod's name (default DefaultNamespace(host): $POD_NAMESPACE when the host is $POD_NAME).
// "" records none. `osctl locks` judges a holder gone only when its value records a namespace.
func WithNamespace(ns string) Option { return func(c *config) { c.namespace, c.nsSet = ns, true } }

// WithTries sets how many acquisition attempts Acquire makes before ErrNotAcquired (default 32).
func WithTries(n int) Option { return func(c *config) { c.tries = n } }

// WithRetryDelay sets the mean delay between acquisition attempts; each delay is drawn uniformly
// from [d/2, 3d/2) so that contenders do not retry in lock step (default 50-250 ms).
func WithRetryDelay(d time.Duration) Option { return func(c *config) { c.retryDelay = d } }

// WithFencing turns fencing tokens on or off (default on). Without fencing, Lease.Token is 0
// and acquisition costs two fewer round trips.
func WithFencing(on bool) Option { return func(c *config) { c.fencing = on } }

// WithRenewEvery sets how often a held lease is extended (default TTL/3). It must be shorter
// than the TTL.
func WithRenewEvery(d time.Duration) Option { return func(c *config) { c.renewEvery = d } }

// WithoutRenewal makes held leases never extended: a lease ends when its TTL runs out, as
// redlock-rb's lock does when nothing renews it, and its Context is then cancelled with ErrLost.
// It is for modelling such an app (osctl sandbox's redlock-nofence mode); a service that guards
// work longer than its TTL needs renewal.
func WithoutRenewal() Option { return func(c *config) { c.noRenewal = true } }

func buildConfig(nMasters int, opts []Option) (config, error) {
	c := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if nMasters == 0 {
		return c, errors.New("lock: no Redis masters given (need at least one)")
	}
	if err := CheckTTL(c.ttl, c.anyTTL); err != nil {
		return c, err
	}
	if c.tries < 1 {
		return c, fmt.Errorf("lock: tries %d must be at least 1", c.tries)
	}
	if c.retryDelay < 0 {
		return c, fmt.Errorf("lock: retry delay %v must not be negative", c.retryDelay)
	}
	if c.noRenewal {
		c.renewEvery = 0 // the keeper schedules no renewal
	} else if c.renewEvery == 0 {
		c.renewEvery = c.ttl / RenewDivisor
	}
	if !c.noRenewal && (c.renewEvery <= 0 || c.renewEvery >= c.ttl) {
		return c, fmt.Errorf("lock: renewal interval %v must be positive and shorter than the TTL %v", c.renewEvery, c.ttl)
	}
	if c.host == "" {
		c.host = DefaultHost()
	}
	if c.nsSet && c.namespace != "" && !IsNamespaceName(c.namespace) {
		return c, fmt.Errorf("lock: namespace %q is not a Kubernetes namespace name", c.namespace)
	}
	if !c.nsSet {
		c.namespace = DefaultNamespace(strings.ReplaceAll(c.host, ":", "_"))
	}
	return c, nil
}

// holderFor returns the holder of the next acquisition.
func (c *config) holderFor() Holder {
	if c.holder != nil {
		return *c.holder
	}
	h := NewHolder(c.host)
	h.Namespace = c.namespace
	return h
}

// delay returns one jittered retry delay.
func (c *config) delay() time.Duration {
	if c.retryDelay == DefaultRetryDelay {
		return 50*time.Millisecond + rand.N(200*time.Millisecond)
	}
	if c.retryDelay <= 1 {
		return c.retryDelay
	}
	return c.retryDelay/2 + rand.N(c.retryDelay)
}

// drift is the clock-drift allowance subtracted from every validity: 1% of the TTL plus 2 ms
// (redlock-rb's formula).
func (c *config) drift() time.Duration {
	return time.Duration(float64(c.ttl)*DriftFactor) + DriftMin
}

// opTimeout bounds one round of commands to the masters during acquisition (redsync uses 5% of
// the expiry), so a hung master cannot eat the lock's validity.
func (c *config) opTimeout() time.Duration {
	d := c.ttl / 20
	if d < 50*time.Millisecond {
		d = 50 * time.Millisecond
	}
	return d
}
