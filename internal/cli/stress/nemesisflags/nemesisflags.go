// Package nemesisflags are osctl stress's --nemesis flags: the fault schedule, the seed, and
// where the faults go (a sandbox's processes, or pods on Kubernetes).
package nemesisflags

import (
	"context"
	"crypto/rand"
	"encoding/binary"

	"github.com/redis/go-redis/v9"
	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/lock/holders"
	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/sandbox"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/leftover"
)

// Flags are --nemesis and its companions: faults injected into the target during the load.
type Flags struct {
	Spec string
	Seed uint64
	// Namespace, with WebSelector and RedisSelector, faults the pods of a workload on
	// Kubernetes instead of a sandbox.
	Namespace, WebSelector, RedisSelector string
	// Redis are the lock masters kill-holder reads holders from on Kubernetes.
	Redis []string

	// Plan is set by Prepare (nil without --nemesis).
	Plan *nemesis.Plan
	// Leftovers is set by Prepare with a plan and a state directory: it reads what the faults
	// left there and on the sandbox's Redis.
	Leftovers func(ctx context.Context, dirs []string) *history.Leftovers
}

// Add binds the flags.
func (n *Flags) Add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&n.Spec, "nemesis", "", "inject faults during the load, a comma-separated schedule of KIND@AT[+FOR] from the load's start: kill-replica (SIGKILL; sandbox up starts it again), pause-replica (SIGSTOP for FOR), restart-redis (comes back empty), pause-redis, and pause-holder/kill-holder (the replica that holds a lock at AT or as soon after, within 10s); e.g. kill-replica@5s,pause-holder@2s+8s. Needs --state-dir of a running 'osctl sandbox up', or --nemesis-namespace")
	cmd.Flags().StringVar(&n.Namespace, "nemesis-namespace", "", "inject the faults into pods of this namespace (with --kubeconfig): kill-replica deletes a web pod with grace 0, restart-redis the Redis pod; pauses are refused")
	cmd.Flags().StringVar(&n.WebSelector, "nemesis-web-selector", k8s.DefaultWebSelector, "label selector of the web pods kill-replica may delete")
	cmd.Flags().StringVar(&n.RedisSelector, "nemesis-redis-selector", k8s.DefaultRedisSelector, "label selector of the Redis pod restart-redis deletes")
	cmd.Flags().StringSliceVar(&n.Redis, "nemesis-redis", nil, "with --nemesis-namespace, the Redis masters (redis://host:port, rediss:// for TLS) kill-holder reads who holds a lock from")
	cmd.Flags().Uint64Var(&n.Seed, "nemesis-seed", 0, "seed of the choice of which replica or Redis master each fault hits (0: a random seed, printed), to repeat a run's choices")
}

// Validate refuses a selector that selects every pod: an empty --nemesis-web-selector or
// --nemesis-redis-selector would let kill-replica or restart-redis delete any pod of the namespace.
func (n *Flags) Validate() error {
	for _, f := range []struct{ flag, sel, def string }{
		{"--nemesis-web-selector", n.WebSelector, k8s.DefaultWebSelector},
		{"--nemesis-redis-selector", n.RedisSelector, k8s.DefaultRedisSelector},
	} {
		s, err := labels.Parse(f.sel)
		switch {
		case err != nil:
			return cmdutil.Usage("%s %q: %v", f.flag, f.sel, err)
		case s.Empty():
			return cmdutil.Usage("%s %q selects every pod of the namespace: give the label selector of the pods the faults may hit (default %q)", f.flag, f.sel, f.def)
		}
	}
	return nil
}

// Prepare parses the schedule and checks, before any load, that the sandbox over stateDir can
// take every fault: a fault the target does not support is a usage error.
func (n *Flags) Prepare(f *cmdutil.Factory, stateDir string, logf func(string, ...any)) error {
	if n.Spec == "" {
		return nil
	}
	faults, err := nemesis.Parse(n.Spec)
	if err != nil {
		return cmdutil.Usage("--nemesis: %v", err)
	}
	if n.Seed == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		n.Seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	var inj nemesis.Injector
	switch {
	case n.Namespace != "":
		kc, err := f.Kube()
		if err != nil {
			return err
		}
		pn := k8s.NewPodNemesis(kc.Clientset, n.Namespace, n.WebSelector, n.RedisSelector, n.Seed)
		if pn.Holders, err = holdersOn(n.Redis); err != nil {
			return err
		}
		inj = pn
	case stateDir != "":
		if err := cmdutil.NeedsLinux("stress --nemesis", "it signals a local sandbox's processes, and the sandbox runs on Linux; inject faults into pods with --nemesis-namespace"); err != nil {
			return err
		}
		s, err := sandbox.NewNemesis(stateDir, n.Seed)
		if err != nil {
			return cmdutil.Usage("--nemesis: %v", err)
		}
		inj = s
	default:
		return cmdutil.Usage("--nemesis injects faults into a running 'osctl sandbox up' (pass its --state-dir, where it names its processes) or into pods (pass --nemesis-namespace)")
	}
	if err := inj.Check(faults); err != nil {
		return cmdutil.Usage("--nemesis: %v", err)
	}
	n.Plan = &nemesis.Plan{Faults: faults, Injector: inj, Seed: n.Seed}
	if stateDir != "" {
		n.Leftovers = func(ctx context.Context, dirs []string) *history.Leftovers {
			return leftover.Read(ctx, sandbox.StateDir(stateDir), dirs, f.Now())
		}
	}
	logf("nemesis: %d fault(s) (%s), targets chosen with --nemesis-seed %d", len(faults), n.Spec, n.Seed)
	return nil
}

// holdersOn reads the locks on the masters of --nemesis-redis (nil without any).
func holdersOn(urls []string) (func(ctx context.Context) ([]nemesis.Held, error), error) {
	if len(urls) == 0 {
		return nil, nil
	}
	clients := make([]redis.UniversalClient, len(urls))
	for i, u := range urls {
		o, err := redis.ParseURL(u)
		if err != nil {
			return nil, cmdutil.Usage("--nemesis-redis %s: %v; write redis://[user:password@]host:port", redact.URL(u), err)
		}
		clients[i] = redis.NewClient(o)
	}
	return func(ctx context.Context) ([]nemesis.Held, error) { return holders.Read(ctx, clients), nil }, nil
}
