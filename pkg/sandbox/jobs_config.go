package sandbox

import (
	"time"

	"github.com/osctl/osctl/pkg/elbopenapi"
	"github.com/osctl/osctl/pkg/setting"
)

// Requeue phases: why elb-openapi sends an active job back to queued.
const (
	// PhaseWaitingForCapacity is the submit thread's requeue when the cluster is at its ceiling
	// (the Kubernetes coordinator backend): the thread exits, which triggers a dispatch.
	PhaseWaitingForCapacity = "waiting_for_capacity"
	// PhaseRecovered is the watchdog's requeue of a job whose submit thread died (a replica
	// restart mid-submit): nothing triggers a dispatch, the next tick or submit claims it.
	PhaseRecovered = "recovered"
)

// Defaults of JobsConfig, elb-openapi's own.
const (
	// DefaultDispatchInterval is ELB_OPENAPI_DISPATCH_INTERVAL_SECONDS: the dispatcher's tick
	// (elbopenapi.DefaultDispatchInterval, elb-openapi's default).
	DefaultDispatchInterval = elbopenapi.DefaultDispatchInterval
	// DefaultWatchdogInterval is ELB_OPENAPI_WATCHDOG_INTERVAL_SECONDS.
	DefaultWatchdogInterval = 60 * time.Second
)

// JobsConfig configures the job API beyond its queue mode and ceiling (Config.Queue,
// Config.MaxActive): what elb-openapi does that a client of it must cope with.
type JobsConfig struct {
	// APIToken, when set, is required in the X-ELB-API-Token header of every /v1 request
	// (ELB_OPENAPI_API_TOKEN); a missing or wrong one answers 401. Empty allows every request
	// (ELB_OPENAPI_ALLOW_UNAUTHENTICATED=1).
	APIToken string
	// DispatchInterval is the dispatcher's tick: a queued job is claimed on a submit, when a
	// submit thread exits, and on this tick only. The default is DefaultDispatchInterval.
	DispatchInterval time.Duration
	// WatchdogInterval is how often the watchdog refreshes every active job (noticing the
	// finished ones) and requeues jobs whose submit thread died. The default is 60s.
	WatchdogInterval time.Duration
	// RequeueEvery sends every Nth job submitted (counted per replica with the local and split
	// queues, across replicas with the shared one) back to queued once, with RequeuePhase. 0
	// never does.
	RequeueEvery int
	// RequeuePhase is PhaseRecovered (the default) or PhaseWaitingForCapacity.
	RequeuePhase string
	// HideCeiling leaves the ceiling out of GET /status, as the real service tells no client its
	// ceiling.
	HideCeiling bool
}

func (c JobsConfig) withDefaults() JobsConfig {
	if c.DispatchInterval == 0 {
		c.DispatchInterval = DefaultDispatchInterval
	}
	if c.WatchdogInterval == 0 {
		c.WatchdogInterval = DefaultWatchdogInterval
	}
	if c.RequeuePhase == "" {
		c.RequeuePhase = PhaseRecovered
	}
	return c
}

// The bounds of the job API's dispatch and watchdog intervals (Validate's reasons say them).
const (
	MinJobInterval = 10 * time.Millisecond
	MaxJobInterval = time.Hour
)

// Validate checks c (after defaults). Its errors are *setting.Error naming the field
// (DispatchInterval, WatchdogInterval, RequeueEvery, RequeuePhase, APIToken).
func (c JobsConfig) Validate() error {
	c = c.withDefaults()
	outside := func(d time.Duration) bool { return d < MinJobInterval || d > MaxJobInterval }
	switch {
	case outside(c.DispatchInterval):
		return setting.Errorf("DispatchInterval", "%v: use 10ms to 1h (the real service's is %v)", c.DispatchInterval, elbopenapi.DefaultDispatchInterval)
	case outside(c.WatchdogInterval):
		return setting.Errorf("WatchdogInterval", "%v: use 10ms to 1h (the real service's is 60s)", c.WatchdogInterval)
	case c.RequeueEvery < 0:
		return setting.Errorf("RequeueEvery", "%d: use 0 (never) or more", c.RequeueEvery)
	case c.RequeuePhase != PhaseRecovered && c.RequeuePhase != PhaseWaitingForCapacity:
		return setting.Errorf("RequeuePhase", "%q: use %s or %s", c.RequeuePhase, PhaseRecovered, PhaseWaitingForCapacity)
	case c.APIToken != "" && len(c.APIToken) < 8:
		return setting.Errorf("APIToken", "is too short: use at least 8 characters")
	}
	return nil
}
