package stress

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/report"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

// postTimeout bounds the work after the load beyond the profile's own wait (Config.AfterLoad):
// reading every record back, every file of the run on the volume (over an exec into a pod, say)
// and the Deployment. It continues after Ctrl-C, on a context of its own; a second Ctrl-C ends
// osctl. A 2000-request run's read-backs and exec state read took over 30 s on a loaded machine.
const postTimeout = 10 * time.Minute

// Run runs a stress test and returns its report. An error means the run could not be done (a
// *ConfigError for a Config that cannot run, an unreachable target, a failed setup, a refused
// token, the state that could not be read); races found and an inconclusive run are the report's
// verdict, not errors. When ctx ends the load stops and the run judges what it has (a partial
// report).
func Run(ctx context.Context, cfg Config, d Deps) (*report.Report, error) {
	var pods *podTargets
	if d.Pods != nil {
		switch {
		case d.Fleet != nil:
			return nil, configErr("the load to a workload's pods goes from this process, through a port-forward to each: not from load workers")
		case !cfg.Kind().Probes:
			return nil, configErr("the http profile sends to the routes it is given: give each pod's URL")
		case len(cfg.Targets) > 0:
			return nil, configErr("give the targets or the pods, not both")
		}
		var err error
		if pods, cfg.Targets, err = firstPods(ctx, d.Pods, cfg.startAllowed()); err != nil {
			return nil, err
		}
	}
	tier, note, err := sizeRun(ctx, &cfg, d)
	if err != nil {
		return nil, err
	}
	cfg = cfg.WithDefaults()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	r := &runner{cfg: cfg, d: d, tier: tier, pods: pods}
	defer r.close()
	if note != "" {
		r.notice("%s", note)
	}
	return r.run(ctx)
}

// sizeRun reads the tier (Deps.Tier) and sizes cfg to it (SizeToTier). A tier that cannot be
// read fails a run at --concurrency auto; any other run goes on, with a notice.
func sizeRun(ctx context.Context, cfg *Config, d Deps) (*Tier, string, error) {
	if d.Tier == nil {
		if cfg.ConcurrencyAuto {
			return nil, "", fieldErr("Concurrency", "auto needs the tier it sizes the load to: add {Deployment} NAME")
		}
		return nil, "", nil
	}
	t, err := d.Tier(ctx)
	if err != nil {
		if cfg.ConcurrencyAuto {
			return nil, "", fmt.Errorf("reading the tier's capacity to size the load to: %w", err)
		}
		return nil, "reading the tier's capacity: " + err.Error(), nil
	}
	note, err := SizeToTier(cfg, t)
	return t, note, err
}

type runner struct {
	cfg     Config
	d       Deps
	fleet   Fleet
	rec     *recorder
	hdr     history.Header
	targets []profile.Target
	setup   *Setup
	notices []string
	closers []func()
	tier    *Tier       // read before the load (nil: not read)
	pods    *podTargets // nil unless Deps.Pods

	noticeMu sync.Mutex
}

func (r *runner) close() {
	for _, c := range r.closers {
		c()
	}
}

func (r *runner) notice(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	r.noticeMu.Lock() // the nemesis and the pods' watch say theirs while the load runs
	defer r.noticeMu.Unlock()
	for _, n := range r.notices {
		if n == s {
			return // load workers may each say the same
		}
	}
	r.notices = append(r.notices, s)
	if r.d.Observer.Notice != nil {
		r.d.Observer.Notice(s)
	}
}

// begin starts the fleet (a Sender in this process unless Deps gives one), probes the targets
// and writes the history's header fields.
func (r *runner) begin(ctx context.Context) error {
	cfg := r.cfg
	r.fleet = r.d.Fleet
	if r.fleet == nil {
		sd := SenderDeps{Conns: r.d.Conns, Client: r.d.Client, Now: r.d.Now}
		if r.pods != nil {
			sd.Pool = r.pods.pool
		}
		w, err := NewSender(cfg, profile.Shard{}, sd)
		if err != nil {
			return err
		}
		r.fleet, r.closers = w, append(r.closers, w.Close)
	}
	pr, err := r.fleet.Probe(ctx)
	if err != nil {
		return err
	}
	for _, n := range pr.Notices {
		r.notice("%s", n)
	}
	r.targets = targetsOf(cfg.Targets, pr.Targets)
	r.rec = &recorder{keep: r.cfg.Kind().Records}
	r.hdr = history.Header{Schema: history.SchemaVersion, Run: cfg.Run, Profile: cfg.Profile, Requests: cfg.Requests, Concurrency: cfg.Concurrency,
		Rate: cfg.Rate, FileLimit: pr.FileLimit, Ignore: cfg.Ignore,
		Thresholds: verdict.Thresholds{MinAcknowledged: cfg.MinAcknowledged, MinContended: cfg.MinContended}, // a profile's stage adds its own (jobs: the ceiling and grace)
		Started:    r.d.Now().UTC(), Version: cfg.Version}
	if r.tier != nil {
		r.hdr.TierCapacity = r.tier.Capacity
	}
	if cfg.ConcurrencyAuto {
		r.hdr.ConcurrencySource = "auto"
	}
	if w, ok := r.fleet.(interface{ Workers() int }); ok {
		r.hdr.Workers = w.Workers()
	}
	if cfg.Duration > 0 {
		r.hdr.Duration = cfg.Duration.String()
	}
	if r.d.History != nil {
		r.rec.w = history.NewWriter(r.d.History)
		if !r.rec.keep {
			r.rec.fold = report.NewLoadFold(r.hdr.Started)
		}
	}
	for _, t := range r.targets {
		r.hdr.Targets = append(r.hdr.Targets, t.URL.Redacted())
	}
	return nil
}

func (r *runner) run(ctx context.Context) (*report.Report, error) {
	cfg := r.cfg
	err := r.begin(ctx)
	if err != nil {
		return nil, err
	}
	prof, _ := ProfileOf(cfg.Profile) // Config.Check found it
	st, err := prof.Stage(ctx, &StageEnv{r: r, Header: &r.hdr})
	if err != nil {
		return nil, err
	}
	if r.pods != nil {
		r.pods.nameTargets(r.hdr.TargetInfo)
	}
	r.rec.record(&history.Record{Kind: history.KindHeader, Header: &r.hdr})
	if r.setup, err = r.fleet.Setup(ctx, r.rec.record); err != nil {
		_ = r.rec.flush(&history.Footer{Finished: r.d.Now().UTC(), Partial: true, Reason: "setup failed"})
		return nil, fmt.Errorf("run %s: %v", cfg.Run, err)
	}

	r.d.Observer.phase(PhaseLoad, fmt.Sprintf("run %s: %s profile, %s at concurrency %d against %d target(s)%s", cfg.Run, cfg.Profile, r.bound(),
		cfg.Concurrency, len(r.targets), r.from()))
	if r.d.Observer.Load != nil {
		r.d.Observer.Load(int64(cfg.Requests))
	}
	var rec profile.Recorder
	if r.rec.keep || r.rec.w != nil {
		rec = r.rec.record
	}
	faults := r.startNemesis(ctx)
	stopPods := r.watchPods(ctx)
	load, err := r.fleet.Load(ctx, r.setup, rec, LoadObserver{Done: r.d.Observer.done(), Phase: r.d.Observer.phase})
	injected := faults()
	stopPods()
	if err != nil {
		_ = r.rec.flush(&history.Footer{Finished: r.d.Now().UTC(), Partial: true, Reason: "the load failed", Notices: r.notices})
		return nil, fmt.Errorf("run %s: %v", cfg.Run, err)
	}
	for _, n := range load.Notices {
		r.notice("%s", n)
	}
	stats := load.Stats
	footer := history.Footer{Engine: stats.Engine, LoadWorkers: load.Workers, Faults: injected}
	if injected != nil {
		footer.NemesisSeed = r.d.Nemesis.Seed
	}
	if r.pods != nil {
		footer.TargetsAdded, footer.TargetsGone = r.pods.added, r.pods.gone
	}
	partial := false
	switch {
	case stats.Stopped == attack.StopInterrupted:
		partial, footer.Reason = true, "interrupted"
	case load.Lost != "":
		partial, footer.Reason = true, load.Lost
		r.notice("%s", load.Lost)
	case stats.Stopped == attack.StopErrorRate:
		partial, footer.Reason = true, fmt.Sprintf("stopped early: the error rate passed {MaxErrorRate} %v", cfg.MaxErrorRate)
		r.notice("%s", footer.Reason)
	}
	footer.Partial = partial

	// What follows the load goes on after Ctrl-C, on a context of its own, bounded.
	postCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), postTimeout+cfg.AfterLoad())
	defer cancel()
	state, settled, err := st.After(postCtx, partial, load, &footer)
	if err != nil {
		footer.Finished, footer.Partial, footer.Notices = r.d.Now().UTC(), true, r.notices
		_ = r.rec.flush(&footer)
		return nil, err
	}
	footer.Settled = settled
	r.readLeftovers(postCtx, &footer)
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
	return judge(h, stats, r.rec.fold, state, JudgeOptions{Version: cfg.Version}), nil
}

// startNemesis injects the run's faults while the load runs; the function it returns ends the
// schedule (the load is over: what is still due is not injected) and returns what became of
// each fault, once every pause has ended.
func (r *runner) startNemesis(ctx context.Context) func() []nemesis.Fault {
	n := r.d.Nemesis
	if n == nil || len(n.Faults) == 0 {
		return func() []nemesis.Fault { return nil }
	}
	loadDone := make(chan struct{})
	out := make(chan []nemesis.Fault, 1)
	start := r.d.Now()
	go func() { out <- nemesis.Run(ctx, n.Faults, n.Injector, start, loadDone, r.notice) }()
	return func() []nemesis.Fault {
		close(loadDone)
		return <-out
	}
}

// from says where the load is sent from, when not from this process alone.
func (r *runner) from() string {
	if r.hdr.Workers > 0 {
		return fmt.Sprintf(" from %d load workers", r.hdr.Workers)
	}
	return ""
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
