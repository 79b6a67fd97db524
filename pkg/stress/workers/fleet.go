package workers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	pstress "github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// Fleet is a stress.Fleet of load workers, each a Proc that runs `osctl stress worker`: worker 0
// probes, sets up, settles and reads back; every worker sends its shard of the load, starting
// together; the coordinator merges what they send into one history and one set of statistics.
type Fleet struct {
	cfg   pstress.Config
	conns []*conn
	o     ConnectOptions
}

// ConnectOptions tune Connect.
type ConnectOptions struct {
	// Version is this osctl's version; a worker of another refuses the run.
	Version string
	// Records asks the workers for every record (the verdict or --history needs them).
	Records bool
	// Timeout bounds each worker's answer to hello. The default is one minute.
	Timeout time.Duration
	// StopTimeout bounds how long the workers may take to answer once the load was told to stop.
	// The default is one minute.
	StopTimeout time.Duration
	// Log hears what the fleet does (a worker ready, a clock corrected).
	Log func(line string)
	// Now is the clock (time.Now by default).
	Now func() time.Time
	// WhyLost, when set, says what became of a lost worker's pod.
	WhyLost func(pod string) string
}

// VersionError says a worker runs another osctl version than the coordinator.
type VersionError struct {
	Worker, Coordinator string
	Who                 string
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("%s runs osctl %s, and this osctl is %s: pass {Workers.Image} with the image of osctl %s (make image IMAGE=REGISTRY/osctl:%s in a checkout of it builds and pushes one)",
		e.Who, e.Worker, e.Coordinator, e.Coordinator, ImageTag(e.Coordinator))
}

// Connect says hello to every worker at once (the run's configuration and its shard: worker i of
// len(procs)) and waits for each to be ready. cfg must have its run id (Config.WithDefaults). On
// error every Proc is closed.
func Connect(ctx context.Context, procs []Proc, pods []string, cfg pstress.Config, o ConnectOptions) (*Fleet, error) {
	if o.Timeout <= 0 {
		o.Timeout = time.Minute
	}
	if o.StopTimeout <= 0 {
		o.StopTimeout = time.Minute
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = func(string) {}
	}
	f := &Fleet{cfg: cfg, o: o}
	for i, p := range procs {
		pod := ""
		if i < len(pods) {
			pod = pods[i]
		}
		c := newConn(i, pod, p, o.Now)
		if o.WhyLost != nil && pod != "" {
			c.whyLost = func() string { return o.WhyLost(pod) }
		}
		f.conns = append(f.conns, c)
	}
	err := f.each(ctx, func(ctx context.Context, c *conn) error { return f.hello(ctx, c) })
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (f *Fleet) hello(ctx context.Context, c *conn) error {
	ctx, cancel := context.WithTimeout(ctx, f.o.Timeout)
	defer cancel()
	wc, err := toWire(f.cfg)
	if err != nil {
		return err
	}
	t0 := time.Now()
	h := &hello{Version: f.o.Version, Config: wc, Shard: profile.Shard{Index: c.index, Count: len(f.conns)}, Now: t0, Records: f.o.Records}
	r, err := c.call(ctx, &frame{T: tHello, Hello: h}, tReady)
	t2 := time.Now()
	var fe *frameError
	switch {
	case errors.As(err, &fe) && fe.f.Code == codeVersion && fe.f.Ready != nil:
		return &VersionError{Worker: fe.f.Ready.Version, Coordinator: f.o.Version, Who: c.name()}
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
		return fmt.Errorf("%s did not answer within %s: is osctl on the image's PATH? %s", c.name(), f.o.Timeout, lastLine(c.proc.Stderr()))
	case err != nil:
		return fmt.Errorf("%s could not start `osctl stress worker`: %v", c.name(), strings.TrimPrefix(err.Error(), c.name()+": "))
	}
	c.mu.Lock()
	c.ready = r.Ready
	c.mu.Unlock()
	line := fmt.Sprintf("%s ready: osctl %s, pid %d", c.name(), r.Ready.Version, r.Ready.PID)
	// Its clock against this one's, through one round trip: shift it when they differ by more than
	// the round trip can tell, so that the requests of all workers are on one clock.
	rtt := t2.Sub(t0)
	offset := r.Ready.Now.Sub(t0.Add(rtt / 2))
	if offset > max(rtt, 5*time.Millisecond) || -offset > max(rtt, 5*time.Millisecond) {
		if err := c.send(&frame{T: tClock, ShiftNS: int64(-offset)}); err != nil {
			return fmt.Errorf("%s: %s", c.name(), c.why())
		}
		line += fmt.Sprintf("; its clock is %s off this machine's: its times are taken on this machine's clock (within %s)", offset.Round(time.Millisecond), (rtt / 2).Round(time.Millisecond))
	}
	f.o.Log(line)
	return nil
}

// Workers is how many load workers the fleet has.
func (f *Fleet) Workers() int { return len(f.conns) }

// Close says bye to every worker and ends their processes, all at once (closeAll).
func (f *Fleet) Close() { closeAll(f.conns, closeWait) }

// each runs fn on every worker at once and returns the first error (by worker index).
func (f *Fleet) each(ctx context.Context, fn func(context.Context, *conn) error) error {
	errs := make([]error, len(f.conns))
	var wg sync.WaitGroup
	for i, c := range f.conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = fn(ctx, c)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// first is the lowest worker still there (worker 0 unless it was lost).
func (f *Fleet) first() *conn {
	for _, c := range f.conns {
		if !c.isLost() {
			return c
		}
	}
	return nil
}

func (f *Fleet) callErr(c *conn, err error) error {
	var fe *frameError
	if errors.As(err, &fe) {
		if fe.f.Code == codeAuth && fe.f.Auth != nil {
			return fe.f.Auth
		}
		return errors.New(fe.f.Error) // the worker's own words, as a local run gives them
	}
	return err
}

// Probe implements stress.Fleet: every worker probes the targets (each must reach them); what
// worker 0 heard is the run's, and the lowest open-files limit.
func (f *Fleet) Probe(ctx context.Context) (*pstress.Probe, error) {
	probes := make([]*pstress.Probe, len(f.conns))
	err := f.each(ctx, func(ctx context.Context, c *conn) error {
		r, err := c.call(ctx, &frame{T: tProbe}, tProbe)
		if err != nil {
			err = f.callErr(c, err)
			if len(f.conns) > 1 {
				err = fmt.Errorf("%s: %v", c.name(), err)
			}
			return err
		}
		probes[c.index] = r.Probe
		return nil
	})
	if err != nil {
		return nil, err
	}
	pr := *probes[0]
	pr.Notices = nil
	for _, p := range probes {
		pr.FileLimit = min(pr.FileLimit, p.FileLimit)
		pr.Notices = append(pr.Notices, p.Notices...)
	}
	return &pr, nil
}

// Check implements stress.Fleet, in worker 0.
func (f *Fleet) Check(ctx context.Context) error {
	c := f.conns[0]
	if _, err := c.call(ctx, &frame{T: tCheck}, tOK); err != nil {
		return f.callErr(c, err)
	}
	return nil
}

// Setup implements stress.Fleet, in worker 0.
func (f *Fleet) Setup(ctx context.Context, rec profile.Recorder) (*pstress.Setup, error) {
	c := f.conns[0]
	c.observe(rec, nil, nil)
	r, err := c.call(ctx, &frame{T: tSetup}, tSetup)
	if err != nil {
		return nil, f.callErr(c, err)
	}
	return r.Setup, nil
}

// Load implements stress.Fleet: every worker arms its shard of the load, then all start at once
// (the barrier); when ctx ends every worker is told to stop and sends what it has. A worker lost
// before the start fails the load; one lost after it makes the run partial, its requests in
// flight ambiguous, and the others go on.
func (f *Fleet) Load(ctx context.Context, s *pstress.Setup, rec profile.Recorder, obs pstress.LoadObserver) (*pstress.Load, error) {
	var phaseOnce sync.Once
	phase := func(p, line string) {
		if obs.Phase != nil {
			phaseOnce.Do(func() { obs.Phase(p, line) })
		}
	}
	for _, c := range f.conns {
		c.observe(rec, obs.Done, phase)
	}
	if err := f.each(ctx, func(ctx context.Context, c *conn) error {
		if _, err := c.call(ctx, &frame{T: tLoad, Setup: s}, tArmed); err != nil {
			return fmt.Errorf("%s could not start its load: %v", c.name(), f.callErr(c, err))
		}
		return nil
	}); err != nil {
		for _, c := range f.conns {
			_ = c.send(&frame{T: tStop}) // the armed ones end their load at once
		}
		return nil, err
	}
	for _, c := range f.conns {
		_ = c.send(&frame{T: tGo})
	}
	lossesDone := make(chan struct{})
	defer close(lossesDone)
	f.reportLosses(lossesDone)
	// Ctrl-C (or the caller's end) stops every worker; each then answers with what it has.
	stopAll := context.AfterFunc(ctx, func() {
		for _, c := range f.conns {
			_ = c.send(&frame{T: tStop})
		}
	})
	defer stopAll()
	results := make([]*loaded, len(f.conns))
	waitCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	context.AfterFunc(ctx, func() { time.AfterFunc(f.o.StopTimeout, cancel) })
	_ = f.each(waitCtx, func(wctx context.Context, c *conn) error {
		r, err := c.call(wctx, nil, tLoaded)
		switch {
		case err == nil:
			results[c.index] = r.Loaded
		case wctx.Err() != nil:
			c.lose(fmt.Errorf("it did not answer within %s of being told to stop", f.o.StopTimeout))
		default:
			c.lose(f.callErr(c, err))
		}
		return nil
	})
	return f.merge(results)
}

// merge makes one Load of the workers' own: statistics merged, the lost workers' rebuilt from
// what they sent.
func (f *Fleet) merge(results []*loaded) (*pstress.Load, error) {
	l := &pstress.Load{}
	snaps := make([]attack.Snapshot, len(f.conns))
	var lost []string
	var payloads []json.RawMessage
	for i, c := range f.conns {
		ld := results[i]
		lw := history.LoadWorker{Index: i, Pod: c.pod}
		if ld == nil {
			n := c.unanswered()
			snaps[i] = c.lostSnapshot(f.o.Records)
			lw.Lost, lw.Reason = true, c.why()
			lw.Unstopped = c.unstopped
			msg := fmt.Sprintf("%s was lost during the load: %s", c.name(), lw.Reason)
			if f.o.Records && f.cfg.Kind().Records {
				msg += fmt.Sprintf("; its %d requests in flight are ambiguous", n)
			} else if !f.o.Records {
				msg += fmt.Sprintf("; its %d requests are counted as ambiguous, without their latencies", snaps[i].Counts.Total)
			}
			lost = append(lost, msg)
		} else {
			snaps[i] = ld.Stats
			lw.CPU, lw.MaxRSS = ld.CPU, ld.MaxRSS
			l.Notices = append(l.Notices, ld.Notices...)
			if len(ld.Payload) > 0 {
				payloads = append(payloads, ld.Payload)
			}
		}
		fill(&lw, snaps[i])
		l.Workers = append(l.Workers, lw)
	}
	var err error
	if l.Payload, err = mergePayloads(f.cfg.Profile, payloads); err != nil {
		return nil, err
	}
	st, err := attack.Merge(snaps)
	if err != nil {
		return nil, err
	}
	l.Stats, l.Lost = st, strings.Join(lost, "; ")
	return l, nil
}

// mergePayloads makes one of the workers' load payloads, by the profile's LoadMerger (without
// one, the first stands for all).
func mergePayloads(name string, parts []json.RawMessage) (json.RawMessage, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	p, _ := pstress.ProfileOf(name) // the run's Config was checked
	m, ok := p.(pstress.LoadMerger)
	if !ok {
		return parts[0], nil
	}
	b, err := m.MergeLoad(parts)
	if err != nil {
		return nil, fmt.Errorf("merging the load workers' %s loads: %v", name, err)
	}
	return b, nil
}

// fill sets a worker's figures from its statistics.
func fill(lw *history.LoadWorker, s attack.Snapshot) {
	lw.Sent, lw.Acknowledged, lw.Errors = s.Counts.Total, s.Counts.Acknowledged, s.Counts.Errors+s.Counts.Timeouts
	if el := s.Ended.Sub(s.Began).Seconds(); el > 0 {
		lw.Throughput = float64(s.Counts.Total) / el
	}
	if st, err := attack.Merge([]attack.Snapshot{s}); err == nil {
		lw.P99 = attack.Summarize(st.Histogram()).P99
	}
}

// JobCounts implements stress.Fleet, in the lowest worker still there.
func (f *Fleet) JobCounts(ctx context.Context) (jobs, queued int) {
	c := f.first()
	if c == nil {
		return 0, 1 // nobody left to ask: not settled
	}
	r, err := c.call(ctx, &frame{T: tJobCounts}, tJobCounts)
	if err != nil {
		return 0, 1
	}
	return r.Jobs, r.Queued
}

// Readback implements stress.Fleet, in the lowest worker still there.
func (f *Fleet) Readback(ctx context.Context, plan profile.ReadbackPlan, rec profile.Recorder) error {
	c := f.first()
	if c == nil {
		return errors.New("no load worker is left to read them")
	}
	c.observe(rec, nil, nil)
	if _, err := c.call(ctx, &frame{T: tReadback, Plan: &plan}, tDone); err != nil {
		return f.callErr(c, err)
	}
	return nil
}
