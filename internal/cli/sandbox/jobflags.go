package sandbox

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/sandbox"
)

// tokenEnv carries --api-token from `up` to its replicas, out of the process list.
const tokenEnv = "OSCTL_SANDBOX_API_TOKEN"

// jobFlags are the job API's flags, which `up` passes on to every replica (the token through
// tokenEnv).
type jobFlags struct {
	APIToken         string
	DispatchInterval time.Duration
	WatchdogInterval time.Duration
	RequeueEvery     int
	RequeuePhase     string
	HideCeiling      bool
}

func (j *jobFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&j.APIToken, "api-token", "", "require this token in the X-ELB-API-Token header of every /v1 request, as ELB_OPENAPI_API_TOKEN does (401 without it; or set "+tokenEnv+")")
	fl.DurationVar(&j.DispatchInterval, "dispatch-interval", sandbox.DefaultDispatchInterval, "the job dispatcher's tick: a queued job is claimed on a submit, when a submit thread exits, and on this tick only")
	fl.DurationVar(&j.WatchdogInterval, "watchdog-interval", sandbox.DefaultWatchdogInterval, "how often the watchdog notices finished jobs and requeues jobs whose submit thread died")
	fl.IntVar(&j.RequeueEvery, "requeue-every", 0, "send every Nth job back to queued once (--requeue-phase); 0 never")
	fl.StringVar(&j.RequeuePhase, "requeue-phase", sandbox.PhaseRecovered, "how jobs are requeued: recovered (the submit thread dies, the watchdog requeues the job, the next tick or submit claims it) or waiting_for_capacity (the submit thread requeues it and exits, which claims the next queued job)")
	fl.BoolVar(&j.HideCeiling, "hide-ceiling", false, "leave the job ceiling out of GET /status, as the real elb-openapi tells no client its ceiling (osctl stress --profile jobs then needs --max-active)")
}

// args returns the flags for a replica; the token goes through the environment (env).
func (j *jobFlags) args() []string {
	return []string{"--dispatch-interval", j.DispatchInterval.String(), "--watchdog-interval", j.WatchdogInterval.String(),
		"--requeue-every", strconv.Itoa(j.RequeueEvery), "--requeue-phase", j.RequeuePhase, "--hide-ceiling=" + strconv.FormatBool(j.HideCeiling)}
}

func (j *jobFlags) env() []string {
	if j.APIToken == "" {
		return nil
	}
	return []string{tokenEnv + "=" + j.APIToken}
}

// config returns the job API's config; a replica takes its token from tokenEnv when the flag
// was not given.
func (j *jobFlags) config() sandbox.JobsConfig {
	tok := j.APIToken
	if tok == "" {
		tok = os.Getenv(tokenEnv)
	}
	return sandbox.JobsConfig{APIToken: tok, DispatchInterval: j.DispatchInterval, WatchdogInterval: j.WatchdogInterval,
		RequeueEvery: j.RequeueEvery, RequeuePhase: j.RequeuePhase, HideCeiling: j.HideCeiling}
}

func (j *jobFlags) validate() error {
	switch {
	case j.DispatchInterval < 10*time.Millisecond || j.DispatchInterval > time.Hour:
		return cmdutil.Usage("--dispatch-interval %v: use 10ms to 1h (the real service's is 5s)", j.DispatchInterval)
	case j.WatchdogInterval < 10*time.Millisecond || j.WatchdogInterval > time.Hour:
		return cmdutil.Usage("--watchdog-interval %v: use 10ms to 1h (the real service's is 60s)", j.WatchdogInterval)
	case j.RequeueEvery < 0:
		return cmdutil.Usage("--requeue-every %d: use 0 (never) or more", j.RequeueEvery)
	case j.RequeuePhase != sandbox.PhaseRecovered && j.RequeuePhase != sandbox.PhaseWaitingForCapacity:
		return cmdutil.Usage("--requeue-phase %q: use %s or %s", j.RequeuePhase, sandbox.PhaseRecovered, sandbox.PhaseWaitingForCapacity)
	case j.APIToken != "" && len(j.APIToken) < 8:
		return cmdutil.Usage("--api-token: use at least 8 characters")
	}
	return nil
}

// summary says, for up's summary line, what the job API needs and does beyond its queue.
func (j *jobFlags) summary() string {
	s := fmt.Sprintf("job dispatch tick %v", j.DispatchInterval)
	if j.APIToken != "" || os.Getenv(tokenEnv) != "" {
		s += ", token required in X-ELB-API-Token"
	}
	if j.RequeueEvery > 0 {
		s += fmt.Sprintf(", every %dth job requeued once (%s)", j.RequeueEvery, j.RequeuePhase)
	}
	if j.HideCeiling {
		s += ", ceiling hidden from GET /status"
	}
	return s
}
