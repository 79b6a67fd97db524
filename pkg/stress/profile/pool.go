package profile

import (
	"net/url"
	"sync"
)

// Pool is a run's targets while they change during the load (osctl stress --target-pods: a
// workload's ready pods): load requests go round-robin over the live targets, and a target let
// go gets no new request. It is safe for concurrent use; the zero Pool is empty.
type Pool struct {
	// AllowStart lets starts go to targets that do not say they are the sandbox.
	AllowStart bool

	mu   sync.RWMutex
	live []Target
}

// Set replaces the live targets.
func (p *Pool) Set(ts []Target) {
	p.mu.Lock()
	p.live = append([]Target(nil), ts...)
	p.mu.Unlock()
}

// Add takes t in (again, if its URL was live: the newer status wins).
func (p *Pool) Add(t Target) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.live {
		if p.live[i].URL.String() == t.URL.String() {
			p.live[i] = t
			return
		}
	}
	p.live = append(p.live, t)
}

// Remove lets the target of URL u go; it reports whether it was live.
func (p *Pool) Remove(u string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.live {
		if p.live[i].URL.String() == u {
			p.live = append(p.live[:i:i], p.live[i+1:]...)
			return true
		}
	}
	return false
}

// Live returns the live targets.
func (p *Pool) Live() []Target {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return append([]Target(nil), p.live...)
}

// Pick returns the i-th request's target, round-robin over the live targets (for a start, over
// those that may receive one), or nil when there is none.
func (p *Pool) Pick(i int64, start bool) *url.URL {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if !start {
		if len(p.live) == 0 {
			return nil
		}
		return p.live[int(i%int64(len(p.live)))].URL
	}
	var ok []*url.URL
	for _, t := range p.live {
		if t.Status.Sandbox || p.AllowStart {
			ok = append(ok, t.URL)
		}
	}
	if len(ok) == 0 {
		return nil
	}
	return ok[int(i%int64(len(ok)))]
}
