package ops

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/redisconn"
)

// Defaults of a Monitor.
const (
	DefaultMinInterval = 5 * time.Second // of `osctl locks serve-metrics --min-interval`
	DefaultScanTimeout = 30 * time.Second
	// MaxTop bounds HealthOptions.Top: one series per key is kept for the few oldest only.
	MaxTop = 100
	// maxKeyPatterns bounds the key patterns the stale ages are reported under; more are "other".
	maxKeyPatterns = 32
)

// HealthOptions configure a Monitor.
type HealthOptions struct {
	// Inspect is what each scan runs (patterns, retry window, holder pods, clock).
	Inspect Options
	// MinInterval: a caller within this time of the end of the last scan gets that scan's
	// result (`locks serve-metrics` uses DefaultMinInterval). 0: only a scan in progress is
	// shared.
	MinInterval time.Duration
	// ScanTimeout bounds one scan. The default is DefaultScanTimeout.
	ScanTimeout time.Duration
	// Top is how many of the oldest locks are reported by key (at most MaxTop; 0: none).
	Top int
}

// LockClass is one verdict and flavour, as `osctl locks inspect` reports them.
type LockClass struct {
	Verdict Status
	Flavour string // a Flavour, or "none" for a key that is not a string
}

// MasterHealth is one master as the last scan saw it.
type MasterHealth struct {
	Addr     string        // host:port, never a URL (a cluster's first seed, Sentinel's master name)
	Up       bool          // it answered the scan's PING and was read to the end
	RTT      time.Duration // the slowest PING round trip of its servers (when up)
	AuditLen int64         // XLEN of the audit stream; -1 when it could not be read
	// Nodes are its servers: the master itself, a cluster's primary shards, the master
	// Sentinel named. Empty when they could not be found (no sentinel answered).
	Nodes []NodeHealth
}

// NodeHealth is one server of a master as the last scan saw it.
type NodeHealth struct {
	Addr string // host:port
	Up   bool
	RTT  time.Duration
}

// AgedLock is one of the oldest locks.
type AgedLock struct {
	Key     string // quoted Go-style when it is not valid UTF-8
	Verdict Status
	Flavour string
	Age     time.Duration
}

// LockHealth is what one scan of the inspect pipeline found. Ages are how long the Monitor has
// seen a key hold the same value (it cannot know when a lock was taken): at least that old.
type LockHealth struct {
	Start    time.Time
	Took     time.Duration
	Complete bool   // the scan ran to its end on at least one master
	Error    string // why it did not (no master answered, the scan timed out)
	Masters  []MasterHealth
	Locks    map[LockClass]int
	Debris   int           // stale locks held on fewer masters than a quorum on two reads
	Oldest   time.Duration // the oldest lock's age (not-a-lock keys aside)
	StaleAge map[string]time.Duration
	Top      []AgedLock // oldest first, at most HealthOptions.Top
	Scans    uint64     // scans run so far, this one included
}

// Monitor scans the masters through the inspect pipeline on demand, at most one scan at a time
// and no more often than MinInterval allows: concurrent callers share a scan, and callers
// within MinInterval of the last one get its result. It remembers since when each lock has
// held its value, in 16 bytes per key.
type Monitor struct {
	ctx     context.Context
	masters []redisconn.Master
	o       HealthOptions
	seed    maphash.Seed
	seen    map[uint64]time.Time // hash of key and value -> first seen; touched by scan only
	scans   uint64
	shared  *coalescer
}

// NewMonitor returns a Monitor of masters; scans end when ctx ends.
func NewMonitor(ctx context.Context, masters []redisconn.Master, o HealthOptions) *Monitor {
	if o.ScanTimeout <= 0 {
		o.ScanTimeout = DefaultScanTimeout
	}
	if o.Inspect.Now == nil {
		o.Inspect.Now = time.Now
	}
	if len(o.Inspect.Patterns) == 0 {
		o.Inspect.Patterns = DefaultPatterns
	}
	o.Top = min(max(o.Top, 0), MaxTop)
	m := &Monitor{ctx: ctx, masters: masters, o: o, seed: maphash.MakeSeed(), seen: map[uint64]time.Time{}}
	m.shared = &coalescer{run: m.scan, minInterval: o.MinInterval, now: o.Inspect.Now}
	return m
}

// Health returns the result of a scan: the one in progress, the last one when it ended within
// MinInterval, or a new one.
func (m *Monitor) Health() LockHealth { return m.shared.get() }

// HealthWithin is Health, answered by the time ctx ends (a scrape's timeout): a scan that has
// not ended by then goes on for later callers, and this one gets an incomplete health (the last
// scan's masters and counts, not its locks) that says why.
func (m *Monitor) HealthWithin(ctx context.Context) LockHealth {
	h, ok := m.shared.getWithin(ctx)
	if ok {
		return h
	}
	h.Complete, h.Error = false, "the scan did not finish within the scrape's timeout"
	h.Locks, h.Top, h.StaleAge, h.Debris, h.Oldest = nil, nil, nil, 0, 0
	return h
}

// scan runs the inspect pipeline once and sums it up.
func (m *Monitor) scan() LockHealth {
	now := m.o.Inspect.Now
	h := LockHealth{Start: now(), Locks: map[LockClass]int{}, StaleAge: map[string]time.Duration{}}
	ctx, cancel := context.WithTimeout(m.ctx, m.o.ScanTimeout)
	defer cancel()
	next := make(map[uint64]time.Time, len(m.seen))
	patterns := map[string]bool{}
	sum, err := Inspect(ctx, m.masters, m.o.Inspect, func(v View) error {
		class := LockClass{Verdict: v.Verdict.Status, Flavour: string(v.Flavour)}
		if v.Type != "string" || class.Flavour == "" {
			class.Flavour = "none"
		}
		h.Locks[class]++
		if v.Verdict.Status == StatusStale && v.Verdict.Rule == RuleMinority {
			h.Debris++
		}
		if v.Verdict.Status == StatusNotALock {
			return nil
		}
		id := maphash.String(m.seed, v.Key+"\x00"+v.Value)
		first, ok := m.seen[id]
		if !ok {
			first = h.Start
		}
		next[id] = first
		age := h.Start.Sub(first)
		h.Oldest = max(h.Oldest, age)
		if v.Verdict.Status == StatusStale {
			p := KeyPattern(v.Key, m.o.Inspect.Patterns)
			if !patterns[p] && len(patterns) >= maxKeyPatterns {
				p = "other"
			}
			patterns[p] = true
			h.StaleAge[p] = max(h.StaleAge[p], age)
		}
		h.Top = addTop(h.Top, m.o.Top, AgedLock{Key: labelSafe(v.Key), Verdict: v.Verdict.Status, Flavour: class.Flavour, Age: age})
		return nil
	})
	m.scans++
	h.Scans = m.scans
	switch {
	case err == nil:
		h.Complete = true
		m.seen = next
	case errors.Is(err, context.DeadlineExceeded):
		h.Error = fmt.Sprintf("the scan did not finish within %s", m.o.ScanTimeout)
	default:
		h.Error = err.Error()
	}
	h.Masters = m.masterHealth(ctx, sum)
	h.Took = now().Sub(h.Start)
	return h
}

// masterHealth is each master's state after a scan, with the audit stream's length.
func (m *Monitor) masterHealth(ctx context.Context, sum Summary) []MasterHealth {
	out := make([]MasterHealth, len(m.masters))
	var wg sync.WaitGroup
	for i, ms := range m.masters {
		out[i] = MasterHealth{Addr: addrOf(ms), AuditLen: -1}
		if i < len(sum.Masters) {
			for _, n := range sum.Masters[i].Nodes {
				out[i].Nodes = append(out[i].Nodes, NodeHealth{Addr: n.Addr, Up: n.Error == "" && sum.Masters[i].Error == "", RTT: n.RTT})
			}
		}
		if i >= len(sum.Masters) || sum.Masters[i].Error != "" {
			continue
		}
		out[i].Up, out[i].RTT = true, sum.Masters[i].RTT
		wg.Add(1)
		go func() {
			defer wg.Done()
			if n, err := ms.Client.XLen(ctx, AuditStream).Result(); err == nil {
				out[i].AuditLen = n
			}
		}()
	}
	wg.Wait()
	return out
}

// addrOf is a master's host:port, for a label: never its URL, which may name a user.
func addrOf(m redisconn.Master) string {
	if m.Addr != "" {
		return m.Addr
	}
	if u, err := url.Parse(m.Name); err == nil && u.Host != "" {
		return u.Host
	}
	return "unknown"
}

// addTop keeps the n oldest locks, oldest first (then by key), in top.
func addTop(top []AgedLock, n int, l AgedLock) []AgedLock {
	if n <= 0 {
		return top
	}
	older := func(a, b AgedLock) bool { return a.Age > b.Age || (a.Age == b.Age && a.Key < b.Key) }
	if len(top) == n && !older(l, top[n-1]) {
		return top
	}
	i := sort.Search(len(top), func(i int) bool { return older(l, top[i]) })
	if len(top) < n {
		top = append(top, AgedLock{})
	}
	copy(top[i+1:], top[i:len(top)-1])
	top[i] = l
	return top
}

// KeyPattern is the key pattern a lock key is reported under: the key with its analysis id
// replaced by * (redlock:*:analysis_zip, analysis:*:init_lock), so that there is no label per
// key; a key of another shape goes under the first scan pattern it matches.
func KeyPattern(key string, patterns []string) string {
	if id, step := ParseKey(key); id != "" && len(step) <= 64 && utf8.ValidString(step) {
		prefix := "analysis:"
		if strings.HasPrefix(key, lock.KeyPrefix) {
			prefix = lock.KeyPrefix
		}
		return prefix + "*:" + step
	}
	for _, p := range patterns {
		if Match(p, key) {
			return labelSafe(p)
		}
	}
	return "other"
}

// labelSafe returns s, quoted Go-style when it is not valid UTF-8 (a label value must be).
func labelSafe(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strconv.Quote(s)
}

// coalescer runs one scan at a time for any number of callers: a caller during a scan gets that
// scan's result, and one within minInterval of the last scan's end gets the last result.
type coalescer struct {
	run         func() LockHealth
	minInterval time.Duration
	now         func() time.Time

	mu      sync.Mutex
	last    *LockHealth
	lastEnd time.Time
	running chan struct{} // closed when the scan in progress ends
	waiting int           // callers waiting for the scan in progress
}

func (c *coalescer) get() LockHealth {
	h, _ := c.getWithin(context.Background())
	return h
}

// getWithin is get, waiting at most until ctx ends: then it returns the last result (or none)
// and false, and the scan goes on for the callers after it.
func (c *coalescer) getWithin(ctx context.Context) (LockHealth, bool) {
	c.mu.Lock()
	if c.last != nil && c.minInterval > 0 && c.now().Sub(c.lastEnd) < c.minInterval {
		h := *c.last
		c.mu.Unlock()
		return h, true
	}
	ch := c.running
	if ch == nil {
		ch = make(chan struct{})
		c.running = ch
		go func() {
			h := c.run()
			c.mu.Lock()
			c.last, c.lastEnd, c.running = &h, c.now(), nil
			close(ch)
			c.mu.Unlock()
		}()
	} else {
		c.waiting++
		defer func() { c.mu.Lock(); c.waiting--; c.mu.Unlock() }()
	}
	c.mu.Unlock()
	select {
	case <-ch:
		c.mu.Lock()
		defer c.mu.Unlock()
		return *c.last, true
	case <-ctx.Done():
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.last != nil {
			return *c.last, false
		}
		return LockHealth{}, false
	}
}
