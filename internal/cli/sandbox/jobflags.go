package sandbox

import (
	"fmt"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/sandbox"
	"github.com/osctl/osctl/pkg/setting"
)

// tokenEnv carries --api-token from `up` to its replicas, out of the process list.
const tokenEnv = "OSCTL_SANDBOX_API_TOKEN"

// addJobFlags binds the job API's flags, which `up` passes on to every replica (the token
// through tokenEnv), to j, with the defaults d.
func addJobFlags(cmd *cobra.Command, j *sandbox.JobsConfig, d sandbox.JobsConfig) {
	fl := cmd.Flags()
	fl.StringVar(&j.APIToken, "api-token", d.APIToken, "require this token in the X-ELB-API-Token header of every /v1 request, as ELB_OPENAPI_API_TOKEN does (401 without it; or set "+tokenEnv+")")
	fl.DurationVar(&j.DispatchInterval, "dispatch-interval", d.DispatchInterval, "the job dispatcher's tick: a queued job is claimed on a submit, when a submit thread exits, and on this tick only")
	fl.DurationVar(&j.WatchdogInterval, "watchdog-interval", d.WatchdogInterval, "how often the watchdog notices finished jobs and requeues jobs whose submit thread died")
	fl.IntVar(&j.RequeueEvery, "requeue-every", d.RequeueEvery, "send every Nth job back to queued once (--requeue-phase); 0 never")
	fl.StringVar(&j.RequeuePhase, "requeue-phase", d.RequeuePhase, "how jobs are requeued: recovered (the submit thread dies, the watchdog requeues the job, the next tick or submit claims it) or waiting_for_capacity (the submit thread requeues it and exits, which claims the next queued job)")
	fl.BoolVar(&j.HideCeiling, "hide-ceiling", d.HideCeiling, "leave the job ceiling out of GET /status, as the real elb-openapi tells no client its ceiling (osctl stress --profile jobs then needs --max-active)")
}

// jobArgs returns the job flags for a replica; the token goes through the environment (jobEnv).
func jobArgs(j sandbox.JobsConfig) []string {
	return []string{"--dispatch-interval", j.DispatchInterval.String(), "--watchdog-interval", j.WatchdogInterval.String(),
		"--requeue-every", strconv.Itoa(j.RequeueEvery), "--requeue-phase", j.RequeuePhase, "--hide-ceiling=" + strconv.FormatBool(j.HideCeiling)}
}

func jobEnv(j sandbox.JobsConfig) []string {
	if j.APIToken == "" {
		return nil
	}
	return []string{tokenEnv + "=" + j.APIToken}
}

// jobSettings names the job API's settings as its flags.
var jobSettings = cmdutil.Settings{"DispatchInterval": "--dispatch-interval", "WatchdogInterval": "--watchdog-interval",
	"RequeueEvery": "--requeue-every", "RequeuePhase": "--requeue-phase", "APIToken": "--api-token"}

// validateJobFlags checks the job flags with the library's own checks, named as the flags.
func validateJobFlags(j sandbox.JobsConfig) error {
	err := j.Validate()
	if se, ok := setting.As(err); ok {
		return cmdutil.Usage("%s", se.Render(jobSettings.Flag))
	}
	return err
}

// jobSummary says, for up's summary line, what the job API needs and does beyond its queue.
func jobSummary(j sandbox.JobsConfig) string {
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
