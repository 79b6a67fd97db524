// Package stress is `osctl stress`: a load run that ends in a verdict on the state it left, plus
// `osctl stress judge` (the same verdict offline) and `osctl stress cleanup`.
package stress

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// Options are the flags of `osctl stress`.
type Options struct {
	IO      *cmdutil.IOStreams
	Factory *cmdutil.Factory

	Targets     []string
	Profile     string
	Requests    int
	Concurrency int
	Duration    time.Duration
	Rate        float64
	Timeout     time.Duration

	Analyses   int
	Project    string
	Mix        string
	AllowStart bool

	Method  string
	Headers []string
	Body    string

	Poll       time.Duration
	JobTimeout time.Duration
	MaxActive  int
	Grace      time.Duration
	// jobs profile: the service's dispatch tick (jobs.go).
	DispatchInterval time.Duration

	MaxErrorRate    float64
	MinAcknowledged float64
	MinContended    float64
	SettleTimeout   time.Duration
	WorkerWait      time.Duration
	Ignore          []string

	StateDir       string
	StatePod       string
	StateContainer string
	StateMount     string
	Deployment     string

	History string
	Report  string
	JUnit   string
	HTML    string
	Format  output.Format
}

// NewCmdStress builds `osctl stress` and its subcommands.
func NewCmdStress(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	o := &Options{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "stress --target URL[,URL...] --profile openstudio|jobs|http",
		Short: "Send concurrent requests, then judge the state they left: lost, torn, mixed, duplicate, phantom",
		Long: `osctl stress sends N requests at concurrency C (or at --rate) to one load balancer URL or to
each replica's URL, records every request in a history, waits for the target to settle, reads
the state it left and judges it against what the acknowledged requests must have produced.

Profiles:
  openstudio  create a project and --analyses analyses, then spread zip uploads, starts
              (extraction), data point creations and result file uploads over them (--mix).
              Starts go only to targets whose GET /status says they are the sandbox, or to any
              target with --allow-start (a start launches simulations on a real server).
              The files are read from --state-dir (or one exec in --state-pod).
  jobs        burst POST /v1/jobs to elb-openapi's job API (a "Mode B" BLAST job, or --body),
              then follow every job's status on the replica that accepted it every --poll:
              ceiling (more than --max-active active at once), stranded (queued while capacity
              was free for longer than --grace + --dispatch-interval + --poll), invisible,
              lost. --max-active is required unless the sandbox's GET /status gives it; the
              token goes in --header 'X-ELB-API-Token: TOKEN'. Clean up with
              'osctl stress cleanup --history FILE'.
  http        each target is the route itself (--method, --header, --body with {{nonce}} and
              {{seq}}); no verdict beyond status codes. Bounded by --requests or --duration.
              Like wrk, it sends no User-Agent unless --header gives one.
              To http:// targets in a closed loop (no --rate) requests go out from one event
              loop per CPU (epoll, like wrk; the report's "engine" says which was used).

Exit codes: 0 no race and the verdict was earned (enough requests acknowledged, enough
contention); 1 races found (even in a run cut short); 2 could not run, or inconclusive.`,
		Example: `  # Against a local sandbox of 3 replicas sharing one state directory
  osctl sandbox up --replicas 3 --locking redlock
  osctl stress --profile openstudio --target http://127.0.0.1:9001,http://127.0.0.1:9002,http://127.0.0.1:9003 \
    --requests 10000 --concurrency 10000 --analyses 100 --state-dir /tmp/osctl-sandbox-x \
    --history run.jsonl --report stress-report.json --html stress.html

  # Judge a saved run again, offline
  osctl stress judge --history run.jsonl --state-dir /tmp/osctl-sandbox-x

  # Plain HTTP load for 30 s at 10,000 in flight
  osctl stress --profile http --target http://127.0.0.1:8080/ --concurrency 10000 --duration 30s`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.validate(cmd); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runStress(cmd.Context(), o)
		},
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&o.Targets, "target", nil, "base URL of the target, or comma-separated URLs of each replica (round-robin); for --profile http, the route itself")
	fl.StringVar(&o.Profile, "profile", "openstudio", "workload: openstudio, jobs or http")
	fl.IntVar(&o.Requests, "requests", 1000, "load requests to send (0 with --duration: until it ends; --profile http with --duration alone is bounded by the duration)")
	fl.IntVarP(&o.Concurrency, "concurrency", "c", 100, "requests in flight at once (closed loop); with --rate, the most in flight")
	fl.DurationVar(&o.Duration, "duration", 0, "stop sending after this long (0: no bound beyond --requests)")
	fl.Float64Var(&o.Rate, "rate", 0, "requests per second, open loop (latency counted from each request's intended send time)")
	fl.DurationVar(&o.Timeout, "timeout", time.Minute, "timeout of one request (a timed-out request is ambiguous)")
	fl.IntVar(&o.Analyses, "analyses", 0, "openstudio: analyses to spread the requests over (default requests/100, at least 1, at most 100)")
	fl.StringVar(&o.Project, "project", "", "openstudio: use this existing project id instead of creating one")
	fl.StringVar(&o.Mix, "mix", "upload=5,start=2,data_point=1,upload_file=2", "openstudio: relative weights of the load operations")
	fl.BoolVar(&o.AllowStart, "allow-start", false, "openstudio: send start actions to targets that are not the sandbox (launches simulations on a real server)")
	fl.StringVar(&o.Method, "method", "GET", "http: request method")
	fl.StringArrayVar(&o.Headers, "header", nil, "http, jobs: request header 'Name: value' (repeatable; the job API's token: 'X-ELB-API-Token: TOKEN'); values are never printed")
	fl.StringVar(&o.Body, "body", "", "http, jobs: request body template; {{nonce}} and {{seq}} are replaced per request (jobs: a JSON object, default a Mode B job keyed by the nonce)")
	addJobsFlags(cmd, o)
	fl.Float64Var(&o.MaxErrorRate, "max-error-rate", 0.5, "stop sending once this fraction of requests failed (5xx, timeouts, transport errors); 0 never stops")
	fl.Float64Var(&o.MinAcknowledged, "min-acknowledged", 0.5, "fraction of requests that must be acknowledged for a clean verdict")
	fl.Float64Var(&o.MinContended, "min-contended", 0.5, "openstudio: fraction of analyses that must see two or more overlapping writes for a clean verdict")
	fl.DurationVar(&o.WorkerWait, "worker-wait", profile.DefaultTailWait, "openstudio: the last third of the load (at most the requests beyond the first --concurrency) is sent in three parts, each once a worker of the target is seen taking a job (a start's extraction runs seconds later, in a background worker), so that uploads and extractions overlap; each part waits at most this long (0 holds nothing back)")
	fl.DurationVar(&o.SettleTimeout, "settle-timeout", time.Minute, "openstudio: how long to wait for the state to stop changing before reading it")
	fl.StringSliceVar(&o.Ignore, "ignore", detect.DefaultIgnore, "base-name globs of files the app generates itself (never phantom)")
	fl.StringVar(&o.StateDir, "state-dir", "", "openstudio: the shared volume's root on this machine (the sandbox's state dir, or the NFS mount)")
	fl.StringVar(&o.StatePod, "state-pod", "", "openstudio: read the state through one exec in this pod (namespace from -n), which mounts the volume")
	fl.StringVar(&o.StateContainer, "state-container", "", "container of --state-pod (default its first)")
	fl.StringVar(&o.StateMount, "state-mount", "/mnt/openstudio", "the volume's mount path inside --state-pod")
	fl.StringVar(&o.Deployment, "deployment", "", "Deployment under test (with --kubeconfig): its image and replicas go into the report")
	fl.StringVar(&o.History, "history", "", "write the per-request history as JSON lines to this file (re-judge it with 'osctl stress judge')")
	fl.StringVar(&o.Report, "report", "", "write the JSON report to this file (read by 'osctl rollout --stress-report')")
	fl.StringVar(&o.JUnit, "junit", "", "write a JUnit XML report to this file")
	fl.StringVar(&o.HTML, "html", "", "write a self-contained HTML report (latency histogram, requests in flight, findings) to this file")
	output.AddFlag(cmd, &o.Format)
	cmd.AddCommand(NewCmdJudge(f, nil), NewCmdCleanup(f, nil))
	return cmd
}

func (o *Options) validate(cmd *cobra.Command) error {
	// A run of the http profile may be bounded by --duration alone.
	if o.Profile == "http" && o.Duration > 0 && !cmd.Flags().Changed("requests") {
		o.Requests = 0
	}
	switch o.Profile {
	case "openstudio", "jobs", "http":
	default:
		return cmdutil.Usage("--profile %q: use openstudio, jobs or http", o.Profile)
	}
	if len(o.Targets) == 0 {
		return cmdutil.Usage("no target: pass --target URL[,URL...]")
	}
	if o.Concurrency < 1 || o.Concurrency > 1_000_000 {
		return cmdutil.Usage("--concurrency %d: use 1 to 1000000", o.Concurrency)
	}
	if o.Requests < 0 {
		return cmdutil.Usage("--requests %d: must be 0 or more", o.Requests)
	}
	if o.Requests == 0 && (o.Duration <= 0 || o.Profile != "http") {
		return cmdutil.Usage("--requests 0 needs --profile http and a --duration to bound the run")
	}
	if o.Duration < 0 || o.Rate < 0 || o.Timeout <= 0 {
		return cmdutil.Usage("--duration and --rate must be 0 or more, --timeout above 0")
	}
	for name, v := range map[string]float64{"--max-error-rate": o.MaxErrorRate, "--min-acknowledged": o.MinAcknowledged, "--min-contended": o.MinContended} {
		if v < 0 || v > 1 {
			return cmdutil.Usage("%s %v: use a fraction between 0 and 1", name, v)
		}
	}
	if o.StateDir != "" && o.StatePod != "" {
		return cmdutil.Usage("--state-dir and --state-pod both say where the state is: pass one")
	}
	if o.Profile == "openstudio" && o.Analyses < 0 {
		return cmdutil.Usage("--analyses %d: must be 1 or more", o.Analyses)
	}
	if o.Deployment != "" && !o.Factory.KubeConfigured() {
		return cmdutil.Usage("--deployment needs --kubeconfig (or KUBECONFIG) to read the workload")
	}
	if o.Poll <= 0 || o.Poll > time.Minute {
		return cmdutil.Usage("--poll %s: use a positive interval up to 1m", o.Poll)
	}
	if err := o.validateJobs(); err != nil {
		return err
	}
	if o.WorkerWait < 0 {
		return cmdutil.Usage("--worker-wait must be 0 or more")
	}
	if o.SettleTimeout < 0 {
		return cmdutil.Usage("--settle-timeout must be 0 or more")
	}
	return nil
}
