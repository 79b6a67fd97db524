// Package verdict holds the thresholds of a stress run's verdict: one type that goes from
// osctl stress's flags (pkg/stress.Config embeds it) through the history's header (which keeps
// it, so that `osctl stress judge` applies the run's own) to the judge (pkg/stress/detect's
// Options), defaulted and checked here only.
package verdict

import (
	"time"

	"github.com/osctl/osctl/pkg/setting"
)

// DefaultGrace is how long a queued job may wait while capacity is free, beyond the service's
// dispatch tick and one poll, before it is stranded: what a Grace of 0 means.
const DefaultGrace = time.Second

// Thresholds are what a verdict holds a run to. The JSON field names are the history header's
// (history.Header embeds Thresholds), read back from every history written since schema 2.
type Thresholds struct {
	// MaxActive is the jobs profile's ceiling of active jobs. In a Config, 0 takes the sandbox's
	// (GET /status); in a header, it is the ceiling the run used; in the judge's options, 0 takes
	// the header's.
	MaxActive int `json:"max_active,omitempty"`
	// MinAcknowledged is the fraction of load requests that must be acknowledged for a clean
	// verdict; 0 is no requirement.
	MinAcknowledged float64 `json:"min_acknowledged"`
	// MinContended is the fraction of analyses that must have seen two or more overlapping
	// writes (the openstudio profile); 0 is no requirement.
	MinContended float64 `json:"min_contended"`
	// Grace is how long a queued job may wait while capacity is free, beyond the dispatch tick
	// and one poll, before it is stranded (the jobs profile). 0 means DefaultGrace (StrandGrace);
	// in the judge's options, the header's.
	Grace Duration `json:"grace,omitempty"`
}

// Defaults are osctl stress's thresholds: its flags' defaults.
func Defaults() Thresholds {
	return Thresholds{MinAcknowledged: 0.5, MinContended: 0.5, Grace: Duration(DefaultGrace)}
}

// Check says which threshold cannot be used: a *setting.Error naming it by its Go name.
func (t Thresholds) Check() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"MinAcknowledged", t.MinAcknowledged}, {"MinContended", t.MinContended}} {
		if !(f.v >= 0 && f.v <= 1) {
			return setting.Errorf(f.name, "%v: use a fraction between 0 and 1", f.v)
		}
	}
	switch {
	case t.Grace < 0:
		return setting.Errorf("Grace", "%s: must be 0 or more", t.Grace)
	case t.MaxActive < 0:
		return setting.Errorf("MaxActive", "%d: must be 0 (the sandbox's) or more", t.MaxActive)
	}
	return nil
}

// StrandGrace is Grace, or DefaultGrace when Grace is 0.
func (t Thresholds) StrandGrace() time.Duration {
	if t.Grace == 0 {
		return DefaultGrace
	}
	return time.Duration(t.Grace)
}
