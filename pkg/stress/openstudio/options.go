package openstudio

import (
	"time"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// Options are the openstudio profile's own settings (stress.Config.Options).
type Options struct {
	// Analyses is how many analyses the load is spread over. The default is Requests/100, at
	// least 1 and at most 100.
	Analyses int
	// Project is an existing project to use; empty creates one.
	Project string
	// Mix weighs the operations. The zero Mix is profile.DefaultMix.
	Mix profile.Mix
	// AllowStart sends starts to targets that do not say they are the sandbox (a start launches
	// simulations on a real server).
	AllowStart bool
	// BackgroundWait bounds how long each held-back part of the load waits for the target's
	// workers (0 holds nothing back).
	BackgroundWait time.Duration
	// SettleTimeout is the ceiling of the wait for the analyses' jobs and files after the load
	// (0: no wait). The wait goes on while the jobs make progress, up to it.
	SettleTimeout time.Duration
	// SettleQuiet ends that wait once no job changed state and the files did not change for that
	// long (0: profile.DefaultSettleQuiet, a minute).
	SettleQuiet time.Duration
}

// DefaultSettleTimeout is the default ceiling of the settle wait.
const DefaultSettleTimeout = 10 * time.Minute

// DefaultOptions are the options osctl stress starts from (its flags' defaults), and those of a
// Config without any.
func DefaultOptions() Options {
	return Options{Mix: profile.DefaultMix, BackgroundWait: profile.DefaultTailWait, SettleTimeout: DefaultSettleTimeout,
		SettleQuiet: profile.DefaultSettleQuiet}
}

// OptionsOf returns c's openstudio options: DefaultOptions when it has none.
func OptionsOf(c stress.Config) Options { return stress.OptionsAs(c, DefaultOptions()) }

// Profile implements stress.Options.
func (Options) Profile() string { return stress.ProfileOpenStudio }

// AfterLoad implements stress.AfterLoader: the settle wait's ceiling.
func (o Options) AfterLoad() time.Duration { return o.SettleTimeout }

// StartAllowed implements stress.StartAllower.
func (o Options) StartAllowed() bool { return o.AllowStart }

// withDefaults fills the zero fields that stand for a default: Mix, and Analyses from requests.
func (o Options) withDefaults(requests int) Options {
	if o.Mix == (profile.Mix{}) {
		o.Mix = profile.DefaultMix
	}
	if o.Analyses == 0 {
		o.Analyses = min(max(requests/100, 1), 100)
	}
	return o
}

// check says what in o cannot run.
func (o Options) check() error {
	for _, f := range []struct {
		name string
		v    time.Duration
	}{{"SettleTimeout", o.SettleTimeout}, {"SettleQuiet", o.SettleQuiet}, {"BackgroundWait", o.BackgroundWait}} {
		if f.v < 0 {
			return stress.FieldErrorf(f.name, "%s: must be 0 or more", f.v)
		}
	}
	if o.Analyses < 0 {
		return stress.FieldErrorf("Analyses", "%d: must be 1 or more", o.Analyses)
	}
	return nil
}

// DecodeOptions implements stress.OptionsDecoder.
func (Profile) DecodeOptions(data []byte) (stress.Options, error) {
	return stress.DecodeOptionsAs[Options](data)
}
