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

	"github.com/osctl/osctl/pkg/setting"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

// The names of osctl's own profiles (pkg/stress/profiles registers them).
const (
	ProfileOpenStudio = "openstudio" // history.OpenStudio.Name
	ProfileJobs       = "jobs"       // history.Jobs.Name
	ProfileHTTP       = "http"       // history.HTTP.Name
)

// Config says what to run. Zero fields take the defaults their comments name.
type Config struct {
	// Profile names a registered Profile: openstudio, jobs or http of osctl's own.
	Profile string
	// Targets are one load balancer URL or each replica's; for http, the routes themselves.
	Targets []*url.URL
	// Requests is the number of load requests (0 with a Duration: until it ends, http only).
	Requests int
	// Concurrency is how many requests are in flight at once (with Rate, the most).
	Concurrency int
	// ConcurrencyAuto runs at the tier's capacity (Deps.Tier), in place of Concurrency.
	ConcurrencyAuto bool
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

	// Options are the profile's own settings (openstudio.Options, jobs.Options,
	// httpload.Options): nil takes the profile's defaults, the flags' defaults of osctl stress.
	Options Options

	// Thresholds are the verdict's: MinAcknowledged, MinContended (0: no requirement), and the
	// jobs profile's MaxActive (0: the sandbox's GET /status must give it) and Grace (0: the
	// default). The history's header keeps them.
	verdict.Thresholds
	// Ignore lists base-name globs of files the app generates itself (nil: detect.DefaultIgnore):
	// the verdict's, as the thresholds are (the history's header keeps them, and osctl stress
	// judge may change them).
	Ignore []string

	// Run is the run id (default a new one: profile.NewRunID). Version names osctl in the history
	// and the report.
	Run     string
	Version string
}

// ConfigError says a Config cannot run, and what to change. Err, when set, is the
// *setting.Error naming the field (by its Go name, for the caller to render as it exposes it).
type ConfigError struct {
	Msg string
	Err error
}

func (e *ConfigError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return e.Msg
}

// Unwrap returns the setting error, if any.
func (e *ConfigError) Unwrap() error { return e.Err }

func configErr(format string, a ...any) error { return &ConfigError{Msg: fmt.Sprintf(format, a...)} }

// ConfigErrorf is a ConfigError that says what to change (a profile's Check).
func ConfigErrorf(format string, a ...any) error { return configErr(format, a...) }

// FieldErrorf is a ConfigError about the field name (its Go name); {Name} in the reason names
// other fields (a profile's Check).
func FieldErrorf(name, format string, a ...any) error { return fieldErr(name, format, a...) }

// fieldErr is a ConfigError about the field name; {Name} in the reason names other fields.
func fieldErr(name, format string, a ...any) error {
	return &ConfigError{Err: setting.Errorf(name, format, a...)}
}

// DefaultConfig is the Config osctl stress starts from: its flags' defaults (its nil Options
// take the profile's). Fill in Targets.
func DefaultConfig() Config {
	return Config{
		Profile:      ProfileOpenStudio,
		Requests:     1000,
		Concurrency:  100,
		Timeout:      time.Minute,
		MaxErrorRate: 0.5,
		Thresholds:   verdict.Defaults(),
		Ignore:       append([]string(nil), detect.DefaultIgnore...),
	}
}

// WithDefaults fills the zero fields that stand for a default: Timeout with DefaultConfig's,
// Concurrency with 1, Grace with verdict.DefaultGrace (Thresholds.StrandGrace), Run with a new
// run id, then the profile's own (Profile.Defaults: its Options). A zero MinAcknowledged or
// MinContended stays: no requirement.
func (c Config) WithDefaults() Config {
	d := DefaultConfig()
	if c.Timeout == 0 {
		c.Timeout = d.Timeout
	}
	if c.Concurrency == 0 && !c.ConcurrencyAuto {
		c.Concurrency = 1
	}
	c.Grace = verdict.Duration(c.StrandGrace())
	if c.Run == "" {
		c.Run = profile.NewRunID()
	}
	if p, ok := ProfileOf(c.Profile); ok {
		p.Defaults(&c)
	}
	return c
}

// Kind is the Config's profile (history.KindOf).
func (c Config) Kind() history.Profile { return history.KindOf(c.Profile) }

// Check says what in the Config cannot run: a *ConfigError whose *setting.Error names the
// field by its Go name (an option's too: its field's Go name, as openstudio.Options names it). Run checks the Config it is given, once its zero fields are filled.
func (c Config) Check() error {
	p, ok := ProfileOf(c.Profile)
	if !ok {
		return unknownProfile(c.Profile)
	}
	if !(c.MaxErrorRate >= 0 && c.MaxErrorRate <= 1) {
		return fieldErr("MaxErrorRate", "%v: use a fraction between 0 and 1", c.MaxErrorRate)
	}
	if err := c.Thresholds.Check(); err != nil {
		return &ConfigError{Err: err}
	}
	if err := c.checkOptions(); err != nil {
		return err
	}
	switch {
	case c.Duration < 0:
		return fieldErr("Duration", "%s: must be 0 or more", c.Duration)
	case len(c.Targets) == 0:
		return fieldErr("Targets", ": none given: pass {Targets} URL[,URL...]")
	case (c.Concurrency < 1 && !(c.ConcurrencyAuto && c.Concurrency == 0)) || c.Concurrency > 1_000_000: // auto: Run sets it from the tier
		return fieldErr("Concurrency", "%d: use 1 to 1000000", c.Concurrency)
	case c.Requests < 0:
		return fieldErr("Requests", "%d: must be 0 or more", c.Requests)
	case c.Requests == 0 && (c.Duration <= 0 || c.Kind().Probes):
		return fieldErr("Requests", "0 needs {Profile} http and a {Duration} to bound the run")
	case c.Rate < 0:
		return fieldErr("Rate", "%v: must be 0 or more", c.Rate)
	case c.Timeout <= 0:
		return fieldErr("Timeout", "%s: must be above 0", c.Timeout)
	}
	return p.Check(c)
}
