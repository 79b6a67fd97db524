package rollout

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/lock/ops"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/nfscheck"
	"github.com/osctl/osctl/pkg/redisconn"
)

// Rule ids of the locks gate. They are stable: users ignore rules by id.
const (
	RuleLocksStale     = "rollout.locks.stale"     // a stale lock on some master (FAIL)
	RuleLocksLongTTL   = "rollout.locks.long-ttl"  // a live lock whose TTL is too long (WARN)
	RuleLocksReachable = "rollout.locks.reachable" // a master that did not answer (FAIL)
	RuleLocksSummary   = "rollout.locks.summary"   // masters, lock keys and stale ones (PASS)
)

// Gates builds the gates a rollout runs from its recorded config, in the order nfs, locks,
// pods, http, cmd, prom-1..prom-N. A PromQL gate's settings that are wrong (an unreadable CA or
// token file) are an error here; ProbeGates then checks that Prometheus answers.
func (c *Checks) Gates(ctx context.Context, gc GateConfig) ([]Gate, error) {
	var out []Gate
	if gc.NFS {
		out = append(out, &ResultsGate{GateName: "nfs", Run: c.nfsCheck(gc.NFSPath)})
	}
	if gc.Locks {
		ms, err := c.redis(ctx, "the locks gate")
		if err != nil {
			return nil, err
		}
		out = append(out, &ResultsGate{GateName: "locks", Run: c.locksCheck(ms)})
	}
	if gc.Pods {
		sel, err := metav1.LabelSelectorAsSelector(c.Target.Deployment.Spec.Selector)
		if err != nil {
			return nil, fmt.Errorf("Deployment %s has an invalid selector: %v", c.Target.Deployment.Name, err)
		}
		g, err := NewPodsGate(ctx, c.Kube.Clientset, c.Namespace, sel.String())
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	if gc.HTTP != "" {
		out = append(out, &HTTPGate{URL: gc.HTTP, Latency: gc.HTTPLatency.Duration})
	}
	if gc.Cmd != "" {
		out = append(out, &CmdGate{Command: gc.Cmd, Env: []string{
			"OSCTL_ROLLOUT_NAMESPACE=" + c.Namespace, "OSCTL_ROLLOUT_HPA=" + c.Target.HPA.Name, "OSCTL_ROLLOUT_DEPLOYMENT=" + c.Target.Deployment.Name}})
	}
	pg, err := gc.Prom.gates()
	if err != nil {
		return nil, err
	}
	return append(out, pg...), nil
}

// nfsCheck runs the live NFS preflight (pkg/preflight/nfscheck) on every ready pod of the workload.
func (c *Checks) nfsCheck(path string) func(context.Context) ([]preflight.Result, error) {
	return func(ctx context.Context) ([]preflight.Result, error) {
		return nfscheck.CheckWorkload(ctx, c.Kube, c.Namespace, c.Target.Deployment.Name, path)
	}
}

// locksCheck runs what `osctl locks inspect` runs: every master reachable (every shard of a
// cluster, the master Sentinel names now), no stale lock. Holder pods are checked when the
// Checks have a cluster.
func (c *Checks) locksCheck(ms []redisconn.Master) func(context.Context) ([]preflight.Result, error) {
	var pods ops.PodChecker
	if c.Kube != nil {
		pods = ops.KubePods{Client: c.Kube.Clientset, Namespace: c.Namespace}
	}
	return func(ctx context.Context) ([]preflight.Result, error) {
		var rs []preflight.Result
		sum, err := ops.Inspect(ctx, ms, ops.Options{Pods: pods}, func(v ops.View) error {
			switch v.Verdict.Status {
			case ops.StatusStale:
				rs = append(rs, preflight.Result{ID: RuleLocksStale, Status: preflight.Fail, Subject: v.Key,
					Message: fmt.Sprintf("stale lock (%s): %s", v.Verdict.Rule, v.Verdict.Reason), Fix: "osctl locks break " + v.Key})
			case ops.StatusLongTTL:
				rs = append(rs, preflight.Result{ID: RuleLocksLongTTL, Status: preflight.Warn, Subject: v.Key, Message: v.Verdict.Reason})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		servers := 0
		for _, m := range sum.Masters {
			servers += len(m.Nodes)
			if m.Error != "" {
				rs = append(rs, preflight.Result{ID: RuleLocksReachable, Status: preflight.Fail, Subject: m.Name, Message: "unreachable: " + m.Error})
				continue
			}
			for _, n := range m.Nodes {
				if n.Error != "" {
					rs = append(rs, preflight.Result{ID: RuleLocksReachable, Status: preflight.Fail, Subject: m.Name + " node " + n.Addr,
						Message: "unreachable: " + n.Error + " (its locks were not read)"})
				}
			}
		}
		rs = append(rs, preflight.Result{ID: RuleLocksSummary, Status: preflight.Pass, Subject: "redis",
			Message: fmt.Sprintf("%d masters (%d servers), %d lock keys, %d stale", len(sum.Masters), servers, sum.Keys, sum.Stale)})
		return rs, nil
	}
}

// ResumeGates builds the gates a resumed rollout runs: the ones the operator gives again (given),
// once they pass rec.Check (the digest the journal recorded; accept confirms the gates of an
// older osctl's journal that kept a credential masked). Nothing the journal says is run, asked
// or read: until given passes the check, no gate is built, no command runs and no request goes
// out.
func (c *Checks) ResumeGates(ctx context.Context, rec GateRecord, given GateConfig, accept bool) ([]Gate, error) {
	if err := rec.Check(given, accept); err != nil {
		return nil, err
	}
	return c.Gates(ctx, given)
}
