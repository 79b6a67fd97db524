package rollout

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/rollout"
)

// PlanFlags are the flags that make a plan (plan and run).
type PlanFlags struct {
	Steps        string
	FinalMin     int32
	FinalMax     int32
	Hold         time.Duration
	StepTimeout  time.Duration
	GateInterval time.Duration
	RollbackTo   string
	Gates        GateFlags
}

// GateFlags choose the gates (plan, run, resume).
type GateFlags struct {
	Builtin     []string // nfs, locks, pods
	HTTP        string
	HTTPLatency time.Duration
	Cmd         string
	NFSPath     string
}

func addHPAFlag(cmd *cobra.Command, hpa *string) {
	cmd.Flags().StringVar(hpa, "hpa", "", "the HorizontalPodAutoscaler to step (its scale target is the workload)")
	_ = cmd.MarkFlagRequired("hpa")
}

func addPlanFlags(cmd *cobra.Command, p *PlanFlags) {
	fl := cmd.Flags()
	fl.StringVar(&p.Steps, "steps", "", "absolute replica counts, increasing, for example 1,2,4 (required)")
	fl.Int32Var(&p.FinalMin, "final-min", 0, "minReplicas once the last step passed (default: stay pinned at the last step)")
	fl.Int32Var(&p.FinalMax, "final-max", 0, "maxReplicas once the last step passed (default: the last step)")
	fl.DurationVar(&p.Hold, "hold", 5*time.Minute, "how long each step holds, with the gates running, before the next")
	fl.DurationVar(&p.StepTimeout, "step-timeout", 5*time.Minute, "how long a step may take to have all its replicas updated, ready and available")
	fl.DurationVar(&p.GateInterval, "gate-interval", 30*time.Second, "how often the gates run during a hold")
	fl.StringVar(&p.RollbackTo, "rollback-to", rollout.RollbackOriginal, "what a failure restores: original (the range before the rollout) or last-good (the last step that passed)")
	addGateFlags(cmd, &p.Gates)
	_ = cmd.MarkFlagRequired("steps")
}

func addGateFlags(cmd *cobra.Command, g *GateFlags) {
	fl := cmd.Flags()
	fl.StringSliceVar(&g.Builtin, "gates", []string{"nfs", "locks", "pods"}, "built-in gates: nfs (the NFS preflight in every pod, new ones included), locks (Redis reachable, no stale locks), pods (no restarts or crash loops); --gates '' for none")
	fl.StringVar(&g.HTTP, "gate-http", "", "gate: GET this URL; it must answer 2xx within --gate-http-latency")
	fl.DurationVar(&g.HTTPLatency, "gate-http-latency", 2*time.Second, "latency bound of --gate-http")
	fl.StringVar(&g.Cmd, "gate-cmd", "", "gate: run this shell command; exit 0 passes (for example an osctl stress run)")
	fl.StringVar(&g.NFSPath, "nfs-path", rollout.DefaultNFSPath, "the shared directory whose NFS mount the nfs gate and precondition check")
}

// gateConfig validates the gate flags into the journal's record of them.
func (g GateFlags) gateConfig() (rollout.GateConfig, error) {
	c := rollout.GateConfig{HTTP: g.HTTP, Cmd: g.Cmd, NFSPath: g.NFSPath}
	for _, b := range g.Builtin {
		switch b {
		case "nfs":
			c.NFS = true
		case "locks":
			c.Locks = true
		case "pods":
			c.Pods = true
		case "":
		default:
			return c, cmdutil.Usage("--gates %q: unknown gate; use nfs, locks, pods (or --gate-http, --gate-cmd)", b)
		}
	}
	if g.HTTP != "" {
		if g.HTTPLatency <= 0 {
			return c, cmdutil.Usage("--gate-http-latency must be positive")
		}
		c.HTTPLatency = metav1.Duration{Duration: g.HTTPLatency}
	}
	return c, nil
}

// plan builds and validates the plan from the flags.
func (p PlanFlags) plan(cmd *cobra.Command) (rollout.Plan, error) {
	steps, err := rollout.ParseSteps(p.Steps)
	if err != nil {
		return rollout.Plan{}, cmdutil.Usage("%v", err)
	}
	gc, err := p.Gates.gateConfig()
	if err != nil {
		return rollout.Plan{}, err
	}
	pl := rollout.Plan{Steps: steps, Hold: metav1.Duration{Duration: p.Hold}, StepTimeout: metav1.Duration{Duration: p.StepTimeout},
		GateInterval: metav1.Duration{Duration: p.GateInterval}, RollbackTo: p.RollbackTo, Gates: gc}
	minSet, maxSet := cmd.Flags().Changed("final-min"), cmd.Flags().Changed("final-max")
	if minSet || maxSet {
		last := steps[len(steps)-1]
		fr := rollout.Range{Min: last, Max: last}
		if minSet {
			fr.Min = p.FinalMin
		}
		if maxSet {
			fr.Max = p.FinalMax
		}
		pl.Final = &fr
	}
	if err := pl.Validate(); err != nil {
		return rollout.Plan{}, cmdutil.Usage("%v", err)
	}
	return pl, nil
}

// dryRunFlag is --dry-run=server|none.
type dryRunFlag string

func (d *dryRunFlag) String() string {
	if *d == "" {
		return "none"
	}
	return string(*d)
}

func (d *dryRunFlag) Set(s string) error {
	switch s {
	case "server", "none":
		*d = dryRunFlag(s)
		return nil
	case "true", "client":
		return fmt.Errorf("--dry-run=%s: use --dry-run=server (the API server checks every patch and stores nothing), or osctl rollout plan to print the patches", s)
	}
	return fmt.Errorf("--dry-run=%q: use server or none", s)
}

func (d *dryRunFlag) Type() string { return "string" }

func (d dryRunFlag) server() bool { return d == "server" }

func addDryRunFlag(cmd *cobra.Command, d *dryRunFlag) {
	cmd.Flags().Var(d, "dry-run", "server: send every change as a server-side dry run (admission, validation and RBAC answer; nothing is stored)")
	cmd.Flags().Lookup("dry-run").NoOptDefVal = "server"
}

// LeaseFlags control the rollout's Lease.
type LeaseFlags struct {
	Duration time.Duration
	Force    bool
}

func addLeaseFlags(cmd *cobra.Command, l *LeaseFlags, forceHelp string) {
	cmd.Flags().DurationVar(&l.Duration, "lease-duration", rollout.DefaultLeaseDuration, "how long the rollout's Lease outlives its holder")
	_ = cmd.Flags().MarkHidden("lease-duration")
	cmd.Flags().BoolVar(&l.Force, "force", false, forceHelp)
}
