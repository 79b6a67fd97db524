package stress

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/report"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// postTimeout bounds the work after the load beyond the settle and job timeouts (read-backs, the
// state, the Deployment): it continues after Ctrl-C, on a context of its own.
const postTimeout = 30 * time.Second

// Run runs a stress test and returns its report. An error means the run could not be done (a
// *ConfigError for a Config that cannot run, an unreachable target, a failed setup, a refused
// token, the state that could not be read); races found and an inconclusive run are the report's
// verdict, not errors. When ctx ends the load stops and the run judges what it has (a partial
// report).
func Run(ctx context.Context, cfg Config, d Deps) (*report.Report, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	r := &runner{cfg: cfg, d: d}
	defer r.close()
	return r.run(ctx)
}

type runner struct {
	cfg     Config
	d       Deps
	rec     *recorder
	hdr     history.Header
	targets []profile.Target
	notices []string
	closers []func()
}

func (r *runner) close() {
	for _, c := range r.closers {
		c()
	}
}

func (r *runner) notice(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	r.notices = append(r.notices, s)
	if r.d.Observer.Notice != nil {
		r.d.Observer.Notice(s)
	}
}

// stage is one profile's part of a run: what the load sends, and what follows it.
type stage interface {
	// setup sends the profile's setup requests (after the header is written).
	setup(ctx context.Context) error
	// source is the load.
	source(ctx context.Context) attack.Source
	// after runs once the load ended: it follows, settles and reads; partial says the load was
	// cut short. It returns the state (nil when not read) and whether it had settled.
	after(ctx context.Context, partial bool, f *history.Footer) (*snapshot.State, bool, error)
}

func (r *runner) run(ctx context.Context) (*report.Report, error) {
	cfg := r.cfg
	limit, lerr := attack.RaiseFileLimit(uint64(cfg.Concurrency)*uint64(len(cfg.Targets)) + 512) // a connection per worker per target
	if lerr != nil {
		r.notice("%v: expect connection errors past about %d requests in flight", lerr, limit)
	}
	if r.d.Conns == nil {
		c := attack.NewConns(cfg.Concurrency, cfg.Timeout)
		r.d.Conns, r.closers = c, append(r.closers, c.Close)
	}
	if r.d.Client == nil {
		c := attack.NewClient(cfg.Concurrency, cfg.Timeout)
		r.d.Client, r.closers = c, append(r.closers, c.CloseIdleConnections)
	}
	if err := r.probe(ctx); err != nil {
		return nil, err
	}
	r.rec = &recorder{keep: cfg.Profile != ProfileHTTP || r.d.History != nil}
	if r.d.History != nil {
		r.rec.w = history.NewWriter(r.d.History)
	}
	r.hdr = history.Header{Schema: history.SchemaVersion, Run: cfg.Run, Profile: cfg.Profile, Requests: cfg.Requests, Concurrency: cfg.Concurrency,
		Rate: cfg.Rate, FileLimit: limit, Ignore: cfg.Ignore, MinAcknowledged: cfg.MinAcknowledged, MinContended: cfg.MinContended,
		Started: r.d.Now().UTC(), Version: cfg.Version}
	if cfg.Duration > 0 {
		r.hdr.Duration = cfg.Duration.String()
	}
	for _, t := range r.targets {
		r.hdr.Targets = append(r.hdr.Targets, t.URL.Redacted())
	}
	var (
		st        stage
		eventLoop bool
		err       error
	)
	switch cfg.Profile {
	case ProfileOpenStudio:
		st = r.openStudio()
	case ProfileJobs:
		st, err = r.jobs(ctx)
	default:
		var h *httpStage
		h, eventLoop = r.httpLoad()
		st = h
	}
	if err != nil {
		return nil, err
	}
	r.rec.record(&history.Record{Kind: history.KindHeader, Header: &r.hdr})
	if err := st.setup(ctx); err != nil {
		_ = r.rec.flush(&history.Footer{Finished: r.d.Now().UTC(), Partial: true, Reason: "setup failed"})
		return nil, fmt.Errorf("run %s: %v", cfg.Run, err)
	}

	src := st.source(ctx)
	// The error rate is judged once as many requests were answered as are in flight at once: the
	// first burst of a closed loop goes out together, and stopping after its first answers would
	// stop nothing of it.
	aopts := attack.Options{Concurrency: cfg.Concurrency, Rate: cfg.Rate, Duration: cfg.Duration, MaxErrorRate: cfg.MaxErrorRate, Now: r.d.Now,
		EventLoop: eventLoop, OnDone: r.d.Observer.Done, MinForErrorRate: max(100, cfg.Concurrency)}
	r.d.Observer.phase(PhaseLoad, fmt.Sprintf("run %s: %s profile, %s at concurrency %d against %d target(s)", cfg.Run, cfg.Profile, r.bound(), cfg.Concurrency, len(r.targets)))
	if r.d.Observer.Load != nil {
		r.d.Observer.Load(int64(cfg.Requests))
	}
	stats := attack.Run(ctx, r.d.Conns, src, aopts)
	footer := history.Footer{Engine: stats.Engine}
	partial := false
	switch stats.Stopped {
	case attack.StopInterrupted:
		partial, footer.Reason = true, "interrupted"
	case attack.StopErrorRate:
		partial, footer.Reason = true, fmt.Sprintf("stopped early: the error rate passed --max-error-rate %v", cfg.MaxErrorRate)
		r.notice("%s", footer.Reason)
	}
	footer.Partial = partial

	// What follows the load goes on after Ctrl-C, on a context of its own, bounded.
	postCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), postTimeout+cfg.SettleTimeout+cfg.JobTimeout)
	defer cancel()
	state, settled, err := st.after(postCtx, partial, &footer)
	if err != nil {
		footer.Finished, footer.Partial, footer.Notices = r.d.Now().UTC(), true, r.notices
		_ = r.rec.flush(&footer)
		return nil, err
	}
	footer.Settled = settled
	if r.d.Workload != nil {
		if w, err := r.d.Workload(postCtx); err != nil {
			r.notice("reading the Deployment under test: %v", err)
		} else {
			footer.Workload = w
		}
	}
	r.d.Observer.phase(PhaseJudge, "")
	footer.Finished, footer.Notices = r.d.Now().UTC(), r.notices
	if err := r.rec.flush(&footer); err != nil {
		return nil, fmt.Errorf("writing the history: %v", err)
	}
	h := &history.History{Header: r.hdr, Footer: &footer, Records: r.rec.records()}
	return judge(h, stats, state, JudgeOptions{Version: cfg.Version}), nil
}

// probe asks every target what it is (GET /status), except for the http profile, whose targets are
// routes. A target that does not answer stops the run.
func (r *runner) probe(ctx context.Context) error {
	for _, u := range r.cfg.Targets {
		t := profile.Target{URL: u}
		if r.cfg.Profile != ProfileHTTP {
			if t = profile.Probe(ctx, r.d.Client, u); !t.Reachable {
				return fmt.Errorf("target %s is not reachable: %s", u.Redacted(), t.ProbeErr)
			}
		}
		r.targets = append(r.targets, t)
	}
	return nil
}

// targetInfo is what a probed target said, for the history; startAllowed says whether starts
// may go to it.
func targetInfo(t profile.Target, startAllowed bool) history.TargetInfo {
	ti := history.TargetInfo{URL: t.URL.Redacted(), Sandbox: t.Status.Sandbox, Locking: t.Status.Locking, Queue: t.Status.Queue,
		MaxActive: t.Status.MaxActive, StartAllowed: startAllowed}
	if t.Status.Sandbox {
		rep := t.Status.Replica
		ti.Replica = &rep
	}
	return ti
}

func (r *runner) bound() string {
	var parts []string
	if r.cfg.Requests > 0 {
		parts = append(parts, fmt.Sprintf("%d requests", r.cfg.Requests))
	}
	if r.cfg.Duration > 0 {
		parts = append(parts, "for at most "+r.cfg.Duration.String())
	}
	if r.cfg.Rate > 0 {
		parts = append(parts, fmt.Sprintf("at %v/s", r.cfg.Rate))
	}
	return strings.Join(parts, " ")
}
