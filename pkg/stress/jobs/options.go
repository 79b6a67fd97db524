package jobs

import (
	"time"

	"github.com/osctl/osctl/pkg/elbopenapi"
	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// Options are the jobs profile's own settings (stress.Config.Options).
type Options struct {
	// Body is the submit body template ({{nonce}} and {{seq}} are replaced); empty: a Mode B
	// submit keyed by the nonce.
	Body string
	// Poll is how often a job's status is read, JobTimeout how long one is followed, and
	// DispatchInterval the service's dispatch tick (a correct replica may leave a slot free that
	// long).
	Poll             time.Duration
	JobTimeout       time.Duration
	DispatchInterval time.Duration
}

// DefaultOptions are the options osctl stress starts from (its flags' defaults), and those of a
// Config without any.
func DefaultOptions() Options {
	return Options{Poll: profile.DefaultJobPoll, JobTimeout: profile.DefaultJobTimeout, DispatchInterval: elbopenapi.DefaultDispatchInterval}
}

// OptionsOf returns c's jobs options: DefaultOptions when it has none.
func OptionsOf(c stress.Config) Options { return stress.OptionsAs(c, DefaultOptions()) }

// Profile implements stress.Options.
func (Options) Profile() string { return stress.ProfileJobs }

// AfterLoad implements stress.AfterLoader: how long one job is followed.
func (o Options) AfterLoad() time.Duration { return o.JobTimeout }

// withDefaults fills the zero fields that stand for a default: Poll and JobTimeout.
func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Poll == 0 {
		o.Poll = d.Poll
	}
	if o.JobTimeout == 0 {
		o.JobTimeout = d.JobTimeout
	}
	return o
}

// check says what in o cannot run.
func (o Options) check() error {
	switch {
	case o.Poll <= 0:
		return stress.FieldErrorf("Poll", "%s: must be above 0", o.Poll)
	case o.Poll > time.Minute:
		return stress.FieldErrorf("Poll", "%s: use a positive interval up to 1m", o.Poll)
	case o.JobTimeout <= 0:
		return stress.FieldErrorf("JobTimeout", "%s: must be above 0", o.JobTimeout)
	case o.DispatchInterval < 0 || o.DispatchInterval > time.Hour:
		return stress.FieldErrorf("DispatchInterval", "%s: use 0 to 1h (elb-openapi's default is %s)", o.DispatchInterval, elbopenapi.DefaultDispatchInterval)
	}
	return nil
}

// DecodeOptions implements stress.OptionsDecoder.
func (Profile) DecodeOptions(data []byte) (stress.Options, error) {
	return stress.DecodeOptionsAs[Options](data)
}
