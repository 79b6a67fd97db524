package rollout

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/redischeck"
)

// Validation says how a plan that goes above one replica is validated.
type Validation struct {
	// StressReport is the path of an `osctl stress --report` JSON file ("" when none was given).
	StressReport string
	// MaxReportAge is how old the report may be.
	MaxReportAge time.Duration
	// Strict turns the report's warnings into failures.
	Strict bool
	// Skip runs without a stress report (a WARN instead of a FAIL).
	Skip bool
}

// ReportError is a stress report that could not be read: the input is wrong, not the workload.
type ReportError struct{ Err error }

func (e *ReportError) Error() string { return e.Err.Error() }
func (e *ReportError) Unwrap() error { return e.Err }

// Preconditions runs the checks a plan needs before it may go above one replica: the workload
// is not single-owner, the stress report, the live NFS preflight (ids nfs.*) and the Redis
// preflight (ids redis.*). A plan that stays at one replica, or a single-owner workload, stops
// after the first check. A stress report that cannot be read is a *ReportError.
func (c *Checks) Preconditions(ctx context.Context, p Plan, v Validation) ([]preflight.Result, error) {
	rs := []preflight.Result{CheckSingleOwner(c.Target, p)}
	if preflight.Failed(rs) || p.MaxReplicas() <= 1 {
		return rs, nil
	}
	switch {
	case v.Skip:
		rs = append(rs, SkippedReport())
	case v.StressReport == "":
		rs = append(rs, MissingReport())
	default:
		rep, err := LoadStressReport(v.StressReport)
		if err != nil {
			return nil, &ReportError{Err: err}
		}
		rs = append(rs, CheckStressReport(rep, ReportPolicy{Now: c.now(), MaxAge: v.MaxReportAge,
			Images: c.Target.Images(), Namespace: c.Namespace, Workload: c.Target.Deployment.Name, Plan: p, Strict: v.Strict})...)
	}
	path := p.Gates.NFSPath
	if path == "" {
		path = DefaultNFSPath
	}
	nr, err := c.nfsCheck(path)(ctx)
	if err != nil {
		return nil, fmt.Errorf("NFS preflight: %w", err)
	}
	rs = append(rs, prefixed("nfs", nr)...)
	ms, err := c.redis(ctx, "the Redis preflight (required above one replica)")
	if err != nil {
		return nil, err
	}
	rs = append(rs, prefixed("redis", redischeck.Check(ctx, ms, redischeck.Options{}))...)
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
