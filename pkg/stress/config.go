// Package stress runs a stress test against a web tier and judges the state it left: setup, load,
// settle, read-backs, the state of the volume, the verdict (docs/architecture.md). Run is the
// whole pipeline; Judge is the verdict of a saved run, the same one Run gives. Any Go program can
// run a stress test with them; osctl's CLI only wires flags, files and printing.
package stress

import (
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/osctl/osctl/pkg/stress/profile"
)

// Profiles.
const (
	ProfileOpenStudio = "openstudio"
	ProfileJobs       = "jobs"
	ProfileHTTP       = "http"
)

// Config says what to run. Zero fields take the defaults their comments name.
type Config struct {
	// Profile is openstudio, jobs or http.
	Profile string
	// Targets are one load balancer URL or each replica's; for http, the routes themselves.
	Targets []*url.URL
	// Requests is the number of load requests (0 with a Duration: until it ends, http only).
	Requests int
	// Concurrency is how many requests are in flight at once (with Rate, the most).
	Concurrency int
	// Duration bounds the sending (0: no bound beyond Requests).
	Duration time.Duration
	// Rate is requests per second, open loop (0: closed loop at Concurrency).
	Rate float64
	// Timeout bounds one request. The default is one minute.
	Timeout time.Duration
	// MaxErrorRate stops sending once this fraction of requests failed (0 never stops).
	MaxErrorRate float64
	// Header goes with every request (the job API's token, the http profile's headers).
	Header http.Header

	// Analyses is how many analyses the openstudio load is spread over. The default is
	// Requests/100, at least 1 and at most 100.
	Analyses int
	// Project is an existing project to use; empty creates one.
	Project string
	// Mix weighs the openstudio operations. The zero Mix is profile.DefaultMix.
	Mix profile.Mix
	// AllowStart sends starts to targets that do not say they are the sandbox (a start launches
	// simulations on a real server).
	AllowStart bool
	// SettleTimeout is the ceiling of the wait for the analyses' jobs and files after the load
	// (0: no wait). The wait goes on while the jobs make progress, up to it.
	SettleTimeout time.Duration
	// SettleQuiet ends that wait once no job changed state and the files did not change for that
	// long (0: profile.DefaultSettleQuiet, a minute).
	SettleQuiet time.Duration
	// WorkerWait bounds how long each held-back part of the openstudio load waits for the target's
	// workers (0 holds nothing back).
	WorkerWait time.Duration

	// Method and Body are the http profile's request ({{nonce}} and {{seq}} in Body are replaced);
	// Body is also the jobs profile's submit body.
	Method string
	Body   string

	// Poll, JobTimeout, MaxActive, Grace and DispatchInterval are the jobs profile's: how often a
	// job's status is read, how long one is followed, the service-wide ceiling (0: the sandbox's
	// GET /status must give it), how long a queued job may wait while capacity is free, and the
	// service's dispatch tick.
	Poll             time.Duration
	JobTimeout       time.Duration
	MaxActive        int
	Grace            time.Duration
	DispatchInterval time.Duration

	// MinAcknowledged and MinContended are the verdict's thresholds (0: no requirement); Ignore
	// lists base-name globs of files the app generates itself (nil: detect.DefaultIgnore).
	MinAcknowledged float64
	MinContended    float64
	Ignore          []string

	// Run is the run id (default a new one: profile.NewRunID). Version names osctl in the history
	// and the report.
	Run     string
	Version string
}

// ConfigError says a Config cannot run, and what to change.
type ConfigError struct{ Msg string }

func (e *ConfigError) Error() string { return e.Msg }

func configErr(format string, a ...any) error { return &ConfigError{Msg: fmt.Sprintf(format, a...)} }

// WithDefaults fills the zero fields (Run: a new run id).
func (c Config) WithDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = time.Minute
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 1
	}
	if c.Profile == ProfileOpenStudio && c.Analyses == 0 {
		c.Analyses = min(max(c.Requests/100, 1), 100)
	}
	if c.Mix == (profile.Mix{}) {
		c.Mix = profile.DefaultMix
	}
	if c.Method == "" {
		c.Method = http.MethodGet
	}
	if c.Poll <= 0 {
		c.Poll = profile.DefaultJobPoll
	}
	if c.JobTimeout <= 0 {
		c.JobTimeout = profile.DefaultJobTimeout
	}
	if c.Run == "" {
		c.Run = profile.NewRunID()
	}
	return c
}

// Check says what in the Config cannot run, naming the flag of osctl stress that sets it. Run
// checks too; the CLI checks before opening any file.
func (c Config) Check() error {
	switch c.Profile {
	case ProfileOpenStudio, ProfileJobs, ProfileHTTP:
	default:
		return configErr("--profile %q: use openstudio, jobs or http", c.Profile)
	}
	for name, v := range map[string]float64{"--max-error-rate": c.MaxErrorRate, "--min-acknowledged": c.MinAcknowledged, "--min-contended": c.MinContended} {
		if !(v >= 0 && v <= 1) {
			return configErr("%s %v: use a fraction between 0 and 1", name, v)
		}
	}
	switch {
	case len(c.Targets) == 0:
		return configErr("no target: pass --target URL[,URL...]")
	case c.Concurrency < 1 || c.Concurrency > 1_000_000:
		return configErr("--concurrency %d: use 1 to 1000000", c.Concurrency)
	case c.Requests < 0:
		return configErr("--requests %d: must be 0 or more", c.Requests)
	case c.Requests == 0 && (c.Duration <= 0 || c.Profile != ProfileHTTP):
		return configErr("--requests 0 needs --profile http and a --duration to bound the run")
	case c.Duration < 0 || c.Rate < 0 || c.Timeout < 0:
		return configErr("--duration and --rate must be 0 or more, --timeout above 0")
	case c.Analyses < 0:
		return configErr("--analyses %d: must be 1 or more", c.Analyses)
	case c.Poll < 0 || c.Poll > time.Minute:
		return configErr("--poll %s: use a positive interval up to 1m", c.Poll)
	case c.SettleTimeout < 0 || c.WorkerWait < 0 || c.SettleQuiet < 0:
		return configErr("--settle-timeout, --settle-quiet and --worker-wait must be 0 or more")
	case c.JobTimeout < 0:
		return configErr("--job-timeout %s: must be above 0", c.JobTimeout)
	case c.Grace < 0:
		return configErr("--grace %s: must not be negative", c.Grace)
	case c.DispatchInterval < 0 || c.DispatchInterval > time.Hour:
		return configErr("--dispatch-interval %s: use 0 to 1h (elb-openapi's default is 5s)", c.DispatchInterval)
	case c.MaxActive < 0:
		return configErr("--max-active %d: must be 1 or more", c.MaxActive)
	}
	return nil
}
