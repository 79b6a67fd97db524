// Package stress is `osctl stress`, a load run that ends in a verdict on the state it left (its
// subcommands `judge` and `cleanup` are in the packages beneath). The pipeline is pkg/stress; this
// package wires flags, files, the progress bar and printing.
package stress

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/internal/cli/stress/headerflags"
	"github.com/osctl/osctl/internal/cli/stress/nemesisflags"
	"github.com/osctl/osctl/internal/cli/stress/podflags"
	"github.com/osctl/osctl/internal/cli/stress/resqueflags"
	"github.com/osctl/osctl/internal/cli/stress/shared"
	"github.com/osctl/osctl/internal/cli/stress/stateflags"
	pstress "github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/profile"
	_ "github.com/osctl/osctl/pkg/stress/profiles" // osctl's own profiles, which --profile names
)

// Options are the flags of `osctl stress`.
type Options struct {
	IO      *cmdutil.IOStreams
	Factory *cmdutil.Factory // its Kube getter, secrets, clock and version
	Config  pstress.Config   // what the flags below set directly
	Targets []string
	// Workload is --target-pods, --target-port, --deployment and --concurrency auto.
	Workload podflags.Flags
	profiles profileFlags // the profiles' own flags, which set Config.Options
	Headers  headerflags.Flags
	State    stateflags.Flags
	Nemesis  nemesisflags.Flags
	Resque   resqueflags.Flags
	Fleets   shared.Fleets // nil: the load goes from this process only
	// History, Report, JUnit and HTML are output files.
	History, Report, JUnit, HTML string
	Format                       output.Format
}

// NewCmdStress builds `osctl stress` and its subcommands, with fleets' flags when given.
func NewCmdStress(f *cmdutil.Factory, runF func(context.Context, *Options) error, fleets ...shared.Fleets) *cobra.Command {
	o := &Options{IO: f.IO, Factory: f}
	c := &o.Config
	cmd := &cobra.Command{
		Use:   "stress --target URL[,URL...] --profile openstudio|jobs|http",
		Short: "Send concurrent requests, then judge the state they left: lost, torn, mixed, duplicate, phantom",
		Long: `osctl stress sends N requests at concurrency C (or at --rate) to one load balancer URL or to
each replica's URL, records every request in a history, waits for the target to settle, reads
the state it left and judges it against what the acknowledged requests must have produced.

Profiles:
  openstudio  create a project and --analyses analyses (each with its seed zip and a data point),
              then spread zip uploads, starts (extraction), data point creations and result file
              uploads over them (--mix). Starts go only to targets whose GET /status says they are
              the sandbox, or to any target with --allow-start (a start launches simulations on a
              real server). The last third of the load waits for the target's background workers
              (--background-wait). The files are read from --state-dir (or one exec in --state-pod);
              failed extractions from the sandbox, or from the app's Redis (--resque-redis).
  jobs        burst POST /v1/jobs (elb-openapi), then follow every job's status every --poll on the
              replica that took it: ceiling, stranded, invisible, lost. --max-active is the ceiling.
  http        each target is the route itself (--method, --header, --body with {{nonce}} and
              {{seq}}); no verdict beyond status codes. Bounded by --requests or --duration.
              Like wrk, it sends no User-Agent unless --header gives one, and plain http:// in a
              closed loop goes out from one event loop per CPU (the report's "engine").

Exit codes: 0 no race and the verdict was earned; 1 races found (even in a run cut short);
2 could not run, or inconclusive.`,
		Example: `  # Against a local sandbox of 3 replicas sharing one state directory
  osctl sandbox up --replicas 3 --locking redlock --dir /tmp/os-state
  osctl stress --target http://127.0.0.1:9001,http://127.0.0.1:9002,http://127.0.0.1:9003 \
    --requests 10000 --concurrency 10000 --analyses 100 --state-dir /tmp/os-state \
    --history run.jsonl --report stress-report.json --html stress.html

  # Every ready pod of Service web, each through a port-forward of its own (re-listed during the load)
  osctl stress --target-pods web -n openstudio-rehearsal --state-dir /mnt/openstudio-rehearsal --allow-start \
    --deployment web --requests 10000 --concurrency 1000 --report stress-rehearsal.json

  # Judge a saved run again, offline
  osctl stress judge --history run.jsonl --state-dir /tmp/os-state

  # Plain HTTP load for 30 s at 10,000 in flight
  osctl stress --profile http --target http://127.0.0.1:8080/ --concurrency 10000 --duration 30s`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(o, func(cmd *cobra.Command, _ []string) error { return o.validate(cmd) }, runF, runStress),
	}
	cmdutil.NameSettings(cmd, shared.Settings)
	// The flags' defaults are the library's (pstress.DefaultConfig, and the profiles' DefaultOptions).
	d := pstress.DefaultConfig()
	fl := cmd.Flags()
	fl.StringSliceVar(&o.Targets, "target", nil, "base URL of the target, or comma-separated URLs of each replica (round-robin); for --profile http, the route itself")
	fl.StringVar(&c.Profile, "profile", d.Profile, "workload: openstudio, jobs or http")
	fl.IntVar(&c.Requests, "requests", d.Requests, "load requests to send (0 with --duration: until it ends; --profile http with --duration alone is bounded by the duration)")
	o.Workload.Add(cmd, c, d.Concurrency)
	fl.DurationVar(&c.Duration, "duration", 0, "stop sending after this long (0: no bound beyond --requests)")
	fl.Float64Var(&c.Rate, "rate", 0, "requests per second, open loop (latency counted from each request's intended send time)")
	fl.DurationVar(&c.Timeout, "timeout", d.Timeout, "timeout of one request (a timed-out request is ambiguous)")
	o.profiles.add(cmd)
	o.Headers.Add(cmd, "http, jobs")
	fl.IntVar(&c.MaxActive, "max-active", 0, "jobs: the service-wide ceiling of active jobs, ELB_OPENAPI_MAX_ACTIVE_SUBMISSIONS of the fixed service (required unless the sandbox's GET /status gives it)")
	fl.DurationVar((*time.Duration)(&c.Grace), "grace", time.Duration(d.Grace), "jobs: how long a queued job may wait while capacity is free, beyond --dispatch-interval and --poll, before it is stranded")
	fl.Float64Var(&c.MaxErrorRate, "max-error-rate", d.MaxErrorRate, "stop sending once this fraction of requests failed (5xx, timeouts, transport errors), judged once --concurrency requests (at least 100) were answered; 0 never stops")
	fl.Float64Var(&c.MinAcknowledged, "min-acknowledged", d.MinAcknowledged, "fraction of requests that must be acknowledged for a clean verdict (0: no requirement)")
	fl.Float64Var(&c.MinContended, "min-contended", d.MinContended, "openstudio: fraction of analyses that must see two or more overlapping writes for a clean verdict (0: no requirement)")
	fl.StringSliceVar(&c.Ignore, "ignore", d.Ignore, "base-name globs of files the app generates itself (never phantom)")
	o.State.Add(cmd, true)
	o.Resque.Add(cmd)
	o.Nemesis.Add(cmd)
	if len(fleets) > 0 {
		o.Fleets = fleets[0]
		o.Fleets.AddFlags(cmd)
	}
	o.Workload.AddDeployment(cmd)
	fl.StringVar(&o.History, "history", "", "write the per-request history as JSON lines to this file (re-judge it with 'osctl stress judge')")
	shared.AddReportFlags(cmd, &o.Report, &o.JUnit, &o.HTML)
	output.AddFlag(cmd, &o.Format)
	return cmd
}

// validate checks the flags and turns the ones that need parsing into o.Config.
func (o *Options) validate(cmd *cobra.Command) error {
	c := &o.Config
	// A run of the http profile may be bounded by --duration alone.
	k := c.Kind()
	if !k.Probes && c.Duration > 0 && !cmd.Flags().Changed("requests") {
		c.Requests = 0
	}
	if err := o.Workload.Validate(cmd, o.Factory, c, o.Targets); err != nil {
		return err
	}
	var err error
	if o.Workload.Pods == "" {
		if c.Targets, err = profile.ParseTargets(o.Targets); err != nil {
			return cmdutil.Usage("%v", err)
		}
	}
	if c.Options, err = o.profiles.options(c.Profile); err != nil {
		return err
	}
	var note string
	if c.Header, note, err = o.Headers.Parse(o.Factory.Secrets); err != nil { // a header may carry a token: it is masked in every error
		return err
	}
	if note != "" {
		fmt.Fprintln(o.IO.ErrOut, "notice: "+note)
	}
	if err := o.Nemesis.Validate(); err != nil {
		return err
	}
	if err := o.Workload.Check(*c); err != nil {
		return cmdutil.Usage("%w", err)
	}
	c.Version = o.Factory.Version
	if o.Fleets != nil {
		if err := o.Fleets.Validate(c); err != nil {
			return err
		}
	}
	return o.State.Validate()
}
