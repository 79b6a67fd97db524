package stress

import (
	"context"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// Sender is the part of a run that talks to the targets, in one process: what a local run does
// itself, and what each load worker of osctl stress --workers does in its pod for its shard of
// the load. It is a Fleet of one.
type Sender struct {
	cfg         Config
	shard       profile.Shard
	concurrency int
	rate        float64
	now         func() time.Time
	conns       attack.Client
	client      profile.Doer
	closers     []func()
	pool        *profile.Pool

	prof Profile

	mu      sync.Mutex
	rec     profile.Recorder
	targets []profile.Target
	ld      Loader // the profile's load, made when first needed (loader)
}

// SenderDeps are what a Sender talks through; every field may be left zero (Deps has them).
type SenderDeps struct {
	Conns  attack.Client
	Client profile.Doer
	Now    func() time.Time
	// Pool, when set, receives the probed targets and then holds them while they change (Deps.Pods).
	Pool *profile.Pool
}

// NewSender returns the Sender that sends shard's part of cfg's run: the shard's part of the
// concurrency and of the rate (Shard.Split; the rate evenly), its part of the requests. Close it
// when done.
func NewSender(cfg Config, shard profile.Shard, d SenderDeps) (*Sender, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if shard.Count < 1 {
		shard.Count = 1
	}
	if shard.Index < 0 || shard.Index >= shard.Count {
		return nil, configErr("worker %d of %d: no such worker", shard.Index, shard.Count)
	}
	prof, _ := ProfileOf(cfg.Profile) // cfg.Check found it
	w := &Sender{cfg: cfg, shard: shard, prof: prof, concurrency: max(shard.Split(cfg.Concurrency), 1), rate: cfg.Rate / float64(shard.Count),
		now: d.Now, conns: d.Conns, client: d.Client, pool: d.Pool}
	if w.now == nil {
		w.now = time.Now
	}
	if w.conns == nil {
		c := attack.NewConns(w.concurrency, cfg.Timeout)
		w.conns, w.closers = c, append(w.closers, c.Close)
	}
	if w.client == nil {
		c := attack.NewClient(w.concurrency, cfg.Timeout)
		w.client, w.closers = c, append(w.closers, c.CloseIdleConnections)
	}
	return w, nil
}

// Close releases the Sender's connections.
func (w *Sender) Close() {
	for _, c := range w.closers {
		c()
	}
	w.closers = nil
}

// Concurrency is the Sender's part of the run's concurrency.
func (w *Sender) Concurrency() int { return w.concurrency }

func (w *Sender) record(r *history.Record) {
	w.mu.Lock()
	rec := w.rec
	w.mu.Unlock()
	if rec != nil {
		rec(r)
	}
}

func (w *Sender) recordTo(rec profile.Recorder) {
	w.mu.Lock()
	w.rec = rec
	w.mu.Unlock()
}

// Probe implements Fleet: it raises the open-files limit for the Sender's connections, then asks
// each target's GET /status (except for the http profile).
func (w *Sender) Probe(ctx context.Context) (*Probe, error) {
	pr := &Probe{}
	limit, lerr := attack.RaiseFileLimit(uint64(w.concurrency)*uint64(len(w.cfg.Targets)) + 512) // a connection per worker per target
	pr.FileLimit = limit
	if lerr != nil {
		pr.Notices = append(pr.Notices, fmt.Sprintf("%v: expect connection errors past about %d requests in flight", lerr, limit))
	}
	var ts []profile.Target
	for _, u := range w.cfg.Targets {
		t := profile.Target{URL: u, Reachable: true}
		if w.cfg.Kind().Probes {
			if t = profile.Probe(ctx, w.client, u); !t.Reachable {
				return nil, fmt.Errorf("target %s is not reachable: %s", u.Redacted(), t.ProbeErr)
			}
		}
		ts = append(ts, t)
		pr.Targets = append(pr.Targets, t.Status)
	}
	w.setTargets(ts)
	return pr, nil
}

func (w *Sender) setTargets(ts []profile.Target) {
	w.mu.Lock()
	w.targets = ts
	w.mu.Unlock()
	if w.pool != nil {
		w.pool.Set(ts)
	}
}

// ProbeTarget asks u's GET /status what it is (a target taken in during the load).
func (w *Sender) ProbeTarget(ctx context.Context, u *url.URL) profile.Target {
	return profile.Probe(ctx, w.client, u)
}

// targetsOf pairs the run's URLs with what they said.
func targetsOf(urls []*url.URL, st []profile.ServerStatus) []profile.Target {
	out := make([]profile.Target, len(urls))
	for i, u := range urls {
		out[i] = profile.Target{URL: u, Reachable: true}
		if i < len(st) {
			out[i].Status = st[i]
		}
	}
	return out
}

// loader is the profile's load in this Sender, made on first use with the targets then known.
func (w *Sender) loader() Loader {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ld == nil {
		w.ld = w.prof.Load(SendEnv{Config: w.cfg, Targets: w.targets, Client: w.client, Record: w.record, Now: w.now,
			Concurrency: w.concurrency, Shard: w.shard, Pool: w.pool})
	}
	return w.ld
}

// Check implements Fleet: the profile's check of the targets before anything is sent (a
// Checker's; none: nil).
func (w *Sender) Check(ctx context.Context) error {
	if c, ok := w.loader().(Checker); ok {
		return c.Check(ctx)
	}
	return nil
}

// Setup implements Fleet: the profile's Loader.Setup, when its Kind has a setup.
func (w *Sender) Setup(ctx context.Context, rec profile.Recorder) (*Setup, error) {
	w.recordTo(rec)
	s := &Setup{}
	for _, t := range w.targets {
		s.Targets = append(s.Targets, t.Status)
	}
	if !w.cfg.Kind().Setup {
		return s, nil
	}
	if err := w.loader().Setup(ctx, s); err != nil {
		return nil, err
	}
	return s, nil
}

// Load implements Fleet: the Sender's shard of the load at its part of the concurrency or rate,
// then what the profile's Loader.Finish follows it with.
func (w *Sender) Load(ctx context.Context, s *Setup, rec profile.Recorder, obs LoadObserver) (*Load, error) {
	w.recordTo(rec)
	cfg := w.cfg
	if w.targets == nil && s != nil {
		w.setTargets(targetsOf(cfg.Targets, s.Targets))
	}
	ld := w.loader()
	src, eventLoop, err := ld.Source(ctx, s, rec, obs)
	if err != nil {
		return nil, err
	}
	aopts := attack.Options{Concurrency: w.concurrency, Rate: w.rate, Duration: cfg.Duration, MaxErrorRate: cfg.MaxErrorRate, Now: w.now, EventLoop: eventLoop,
		// The error rate is judged once as many requests were answered as are in flight at once: the
		// first burst of a closed loop goes out together, and stopping after its first answers would
		// stop nothing of it.
		MinForErrorRate: max(100, w.concurrency)}
	if obs.Done != nil {
		aopts.OnDone = func() { obs.Done(1) }
	}
	l := &Load{Stats: attack.Run(ctx, w.conns, src, aopts)}
	ld.Finish(ctx, l, obs)
	return l, nil
}

// JobCounts implements Fleet: the profile's (a JobCounter's; none: 0, 0).
func (w *Sender) JobCounts(ctx context.Context) (jobs, queued int) {
	if c, ok := w.loader().(JobCounter); ok {
		return c.JobCounts(ctx)
	}
	return 0, 0
}

// Readback implements Fleet: the profile's (a ReadBacker's).
func (w *Sender) Readback(ctx context.Context, plan profile.ReadbackPlan, rec profile.Recorder) error {
	w.recordTo(rec)
	rb, ok := w.loader().(ReadBacker)
	if !ok {
		return fmt.Errorf("the %s profile reads nothing back", w.cfg.Profile)
	}
	return rb.Readback(ctx, plan)
}

// Profile is the run's profile.
func (w *Sender) Profile() string { return w.cfg.Profile }
