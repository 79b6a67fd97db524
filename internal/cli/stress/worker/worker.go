// Package worker is the in-cluster mode of osctl stress: the --workers flags (Fleets, which the
// stress command takes) and the hidden `osctl stress worker`, which the coordinator runs through
// exec in each load worker's pod. The pipeline is pkg/stress/workers.
package worker

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/stress/shared"
	pstress "github.com/osctl/osctl/pkg/stress"
	_ "github.com/osctl/osctl/pkg/stress/profiles" // the profiles a history may name
	"github.com/osctl/osctl/pkg/stress/workers"
)

// Options are the flags of `osctl stress worker`.
type Options struct {
	IO      *cmdutil.IOStreams
	Version string
	// Idle makes the command wait this long doing nothing (the pod's own command: the pod then
	// waits for an exec to give it work); 0 serves the coordinator on stdin and stdout.
	Idle time.Duration
}

// NewCmdWorker builds the hidden `osctl stress worker`.
func NewCmdWorker(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	o := &Options{IO: f.IO, Version: f.Version}
	cmd := &cobra.Command{
		Use:    "worker",
		Short:  "A load worker of osctl stress --workers: serves the coordinator's frames on stdin and stdout",
		Hidden: true,
		Long: `worker is run by osctl stress --workers in each load worker's pod, through exec: it reads the
run's configuration and its shard as JSON lines on stdin, sends its records, progress and
statistics as JSON lines on stdout, and refuses a configuration from another osctl version.
With --idle it only waits (the pod's own command).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Idle < 0 {
				return cmdutil.Usage("--idle %s: must be 0 or more", o.Idle)
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return run(cmd.Context(), o)
		},
	}
	cmd.Flags().DurationVar(&o.Idle, "idle", 0, "wait this long (or until SIGTERM) doing nothing, then exit 0")
	return cmd
}

// IdleCommand is what each load worker's pod runs (its deadline appended): this command, idle.
var IdleCommand = []string{"osctl", "stress", "worker", "--idle"}

func run(ctx context.Context, o *Options) error {
	if o.Idle > 0 {
		select {
		case <-ctx.Done():
		case <-time.After(o.Idle):
		}
		return nil
	}
	return workers.Serve(ctx, o.IO.In, o.IO.Out, workers.ServeOptions{Version: o.Version})
}

// Fleets are the --workers flags of osctl stress: the load from K pods in the cluster.
type Fleets struct {
	f     *cmdutil.Factory
	flags workers.Flags
	spec  workers.Spec
}

// NewFleets returns the --workers flags for osctl stress.
func NewFleets(f *cmdutil.Factory) *Fleets { return &Fleets{f: f} }

var _ shared.Fleets = (*Fleets)(nil)

// AddFlags implements shared.Fleets.
func (w *Fleets) AddFlags(cmd *cobra.Command) {
	cmdutil.NameSettings(cmd, cmdutil.Settings{"Workers.Count": "--workers", "Workers.Image": "--worker-image", "Workers.PullSecrets": "--worker-pull-secret",
		"Workers.NodeSelector": "--worker-node-selector", "Workers.Tolerations": "--worker-toleration", "Workers.Resources": "--worker-resources",
		"Workers.ReadyTimeout": "--worker-ready-timeout", "Workers.Deadline": "--worker-deadline"})
	fl := cmd.Flags()
	fl.IntVar(&w.flags.Count, "workers", 0, "send the load from K pods in the cluster (an Indexed Job in -n, driven through exec, see docs/stress-workers.md): --concurrency is divided among them (the remainder one each to the first), --rate split evenly, the requests dealt round-robin")
	fl.StringVar(&w.flags.Image, "worker-image", "", "the load workers' image, with this version's osctl on its PATH (default "+workers.ImageRepository+":VERSION)")
	fl.StringVar(&w.flags.Resources, "worker-resources", "", "each load worker's requests, and limits but for CPU, e.g. cpu=2,memory=1Gi")
	fl.StringVar(&w.flags.NodeSelector, "worker-node-selector", "", "node labels the load workers run on, e.g. pool=load")
	fl.StringArrayVar(&w.flags.Tolerations, "worker-toleration", nil, "a taint the load workers tolerate, KEY[=VALUE][:EFFECT] (repeatable)")
	fl.StringArrayVar(&w.flags.PullSecrets, "worker-pull-secret", nil, "an image pull secret for the load workers' pods (repeatable)")
	fl.DurationVar(&w.flags.ReadyTimeout, "worker-ready-timeout", workers.DefaultReadyTimeout, "how long the load workers' pods may take to be ready")
	fl.DurationVar(&w.flags.Deadline, "worker-deadline", 0, "the load workers' Job ends its pods after this long, whatever happens (default twice what the run may take, at least 1h; 24h for --requests at full speed)")
}

// Validate implements shared.Fleets: with --workers the run gets its id now (it names the Job).
func (w *Fleets) Validate(c *pstress.Config) (err error) {
	if w.spec, err = w.flags.Spec(w.f.Version, c.Concurrency); err != nil {
		return cmdutil.Usage("%w", err)
	}
	w.spec.Command = IdleCommand
	if w.flags.Count > 0 {
		*c = c.WithDefaults()
	}
	return nil
}

// Start implements shared.Fleets: the Job, its pods ready, a worker in each.
func (w *Fleets) Start(ctx context.Context, c pstress.Config, records bool, log io.Writer) (pstress.Fleet, func() string, func(), error) {
	if w.flags.Count == 0 {
		return nil, nil, nil, nil
	}
	kc, err := w.f.Kube()
	if err != nil {
		return nil, nil, nil, err
	}
	cl, err := workers.Start(ctx, kc, w.spec, c, workers.ConnectOptions{Version: w.f.Version, Records: records,
		Log: func(s string) { fmt.Fprintln(log, s) }})
	if err != nil {
		return nil, nil, nil, err
	}
	return cl.Fleet, cl.Undone, func() { cl.Close(context.WithoutCancel(ctx)) }, nil
}
