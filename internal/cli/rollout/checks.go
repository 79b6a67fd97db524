package rollout

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/redisconn"
	"github.com/osctl/osctl/pkg/rollout"
)

// ValidationFlags are the flags of the checks before going above one replica.
type ValidationFlags struct {
	StressReport   string
	MaxReportAge   durationFlag
	Strict         bool
	SkipValidation bool
}

func (v ValidationFlags) validation() rollout.Validation {
	return rollout.Validation{StressReport: v.StressReport, MaxReportAge: v.MaxReportAge.d, Strict: v.Strict, Skip: v.SkipValidation}
}

// checks passes the clients to pkg/rollout's gates and preconditions; the returned func closes
// the Redis masters (if a check connected to them).
func checks(f *cmdutil.Factory, kube *k8s.Clients, ns string, t *rollout.Target) (*rollout.Checks, func()) {
	var closers []func()
	c := &rollout.Checks{Kube: kube, Namespace: ns, Target: t, Now: f.Now,
		Redis: func(ctx context.Context) ([]redisconn.Master, error) {
			ms, closer, err := f.RedisMasters(ctx)
			closers = append(closers, closer)
			return ms, err
		}}
	return c, func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
}

// gatesReady builds the gates (build) and probes those that can be (the PromQL gates: Prometheus
// answers and every query parses), before anything changes. A gate that cannot be built or
// probed is exit 2.
func gatesReady(ctx context.Context, build func() ([]rollout.Gate, error), timeout time.Duration) ([]rollout.Gate, error) {
	gates, err := build()
	if err != nil {
		return nil, err
	}
	if err := rollout.ProbeGates(ctx, gates, timeout); err != nil {
		return nil, fmt.Errorf("%v: nothing was changed", err)
	}
	return gates, nil
}

// preconditionsErr makes an unreadable stress report a usage error.
func preconditionsErr(err error) error {
	var re *rollout.ReportError
	if errors.As(err, &re) {
		return cmdutil.Usage("%v", re.Err)
	}
	return err
}
