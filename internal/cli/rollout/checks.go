package rollout

import (
	"context"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/lock/ops"
	"github.com/osctl/osctl/pkg/nfscheck"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/redisconn"
	"github.com/osctl/osctl/pkg/rollout"
)

// checkEnv holds the clients the gates and preconditions share; close it when done.
type checkEnv struct {
	f       *cmdutil.Factory
	kube    *k8s.Clients
	ns      string
	target  *rollout.Target
	masters []redisconn.Master
	closers []func()
}

func (e *checkEnv) close() {
	for i := len(e.closers) - 1; i >= 0; i-- {
		e.closers[i]()
	}
}

// redis connects to the Redis masters once (the locks gate and the Redis preflight share them).
func (e *checkEnv) redis(ctx context.Context, why string) ([]redisconn.Master, error) {
	if e.masters != nil {
		return e.masters, nil
	}
	ms, closer, err := e.f.RedisMasters(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s needs Redis: %w", why, err)
	}
	e.closers = append(e.closers, closer)
	e.masters = ms
	return ms, nil
}

// nfsCheck runs the live NFS preflight on every ready pod of the workload.
func (e *checkEnv) nfsCheck(path string) func(context.Context) ([]preflight.Result, error) {
	return func(ctx context.Context) ([]preflight.Result, error) {
		return nfscheck.CheckWorkload(ctx, e.kube, e.ns, e.target.Deployment.Name, path)
	}
}

// locksCheck runs `osctl locks inspect` logic: every master reachable, no stale lock.
func (e *checkEnv) locksCheck(ms []redisconn.Master) func(context.Context) ([]preflight.Result, error) {
	pods := ops.KubePods{Client: e.kube.Clientset, Namespace: e.ns}
	return func(ctx context.Context) ([]preflight.Result, error) {
		var rs []preflight.Result
		sum, err := ops.Inspect(ctx, ms, ops.Options{Pods: pods}, func(v ops.View) error {
			switch v.Verdict.Status {
			case ops.StatusStale:
				rs = append(rs, preflight.Result{ID: "rollout.locks.stale", Status: preflight.Fail, Subject: v.Key,
					Message: fmt.Sprintf("stale lock (%s): %s", v.Verdict.Rule, v.Verdict.Reason), Fix: "osctl locks break " + v.Key})
			case ops.StatusLongTTL:
				rs = append(rs, preflight.Result{ID: "rollout.locks.long-ttl", Status: preflight.Warn, Subject: v.Key, Message: v.Verdict.Reason})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, m := range sum.Masters {
			if m.Error != "" {
				rs = append(rs, preflight.Result{ID: "rollout.locks.reachable", Status: preflight.Fail, Subject: m.Name, Message: "unreachable: " + m.Error})
			}
		}
		rs = append(rs, preflight.Result{ID: "rollout.locks.summary", Status: preflight.Pass, Subject: "redis",
			Message: fmt.Sprintf("%d masters, %d lock keys, %d stale", len(sum.Masters), sum.Keys, sum.Stale)})
		return rs, nil
	}
}

// gates builds the gates a rollout runs from its recorded config.
func (e *checkEnv) gates(ctx context.Context, gc rollout.GateConfig) ([]rollout.Gate, error) {
	var out []rollout.Gate
	if gc.NFS {
		out = append(out, &rollout.ResultsGate{GateName: "nfs", Run: e.nfsCheck(gc.NFSPath)})
	}
	if gc.Locks {
		ms, err := e.redis(ctx, "the locks gate")
		if err != nil {
			return nil, err
		}
		out = append(out, &rollout.ResultsGate{GateName: "locks", Run: e.locksCheck(ms)})
	}
	if gc.Pods {
		sel, err := metav1.LabelSelectorAsSelector(e.target.Deployment.Spec.Selector)
		if err != nil {
			return nil, fmt.Errorf("Deployment %s has an invalid selector: %v", e.target.Deployment.Name, err)
		}
		g, err := rollout.NewPodsGate(ctx, e.kube.Clientset, e.ns, sel.String())
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	if gc.HTTP != "" {
		out = append(out, &rollout.HTTPGate{URL: gc.HTTP, Latency: gc.HTTPLatency.Duration})
	}
	if gc.Cmd != "" {
		out = append(out, &rollout.CmdGate{Command: gc.Cmd, Env: []string{
			"OSCTL_ROLLOUT_NAMESPACE=" + e.ns, "OSCTL_ROLLOUT_HPA=" + e.target.HPA.Name, "OSCTL_ROLLOUT_DEPLOYMENT=" + e.target.Deployment.Name}})
	}
	return out, nil
}

// ValidationFlags are the flags of the checks before going above one replica.
type ValidationFlags struct {
	StressReport   string
	MaxReportAge   durationFlag
	Strict         bool
	SkipValidation bool
}

// preconditions runs the checks a plan needs before it may go above one replica: the workload
// is not single-owner, the stress report, the live NFS preflight and the Redis preflight.
func (e *checkEnv) preconditions(ctx context.Context, p rollout.Plan, v ValidationFlags) ([]preflight.Result, error) {
	rs := []preflight.Result{rollout.CheckSingleOwner(e.target, p)}
	if preflight.Failed(rs) || p.MaxReplicas() <= 1 {
		return rs, nil
	}
	switch {
	case v.SkipValidation:
		rs = append(rs, rollout.SkippedReport())
	case v.StressReport == "":
		rs = append(rs, rollout.MissingReport())
	default:
		rep, err := rollout.LoadStressReport(v.StressReport)
		if err != nil {
			return nil, cmdutil.Usage("%v", err)
		}
		rs = append(rs, rollout.CheckStressReport(rep, rollout.ReportPolicy{Now: e.f.Now(), MaxAge: v.MaxReportAge.d,
			Images: e.target.Images(), Namespace: e.ns, Workload: e.target.Deployment.Name, Plan: p, Strict: v.Strict})...)
	}
	path := p.Gates.NFSPath
	if path == "" {
		path = DefaultNFSPath
	}
	nr, err := e.nfsCheck(path)(ctx)
	if err != nil {
		return nil, fmt.Errorf("NFS preflight: %w", err)
	}
	rs = append(rs, prefixed("nfs", nr)...)
	ms, err := e.redis(ctx, "the Redis preflight (required above one replica)")
	if err != nil {
		return nil, err
	}
	rs = append(rs, prefixed("redis", redisPreflight(ctx, ms))...)
	return rs, nil
}

func prefixed(what string, rs []preflight.Result) []preflight.Result {
	for i := range rs {
		if !strings.HasPrefix(rs[i].ID, what) {
			rs[i].ID = what + "." + rs[i].ID
		}
	}
	return rs
}
