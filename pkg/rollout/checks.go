package rollout

import (
	"context"
	"fmt"
	"time"

	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/redisconn"
)

// DefaultNFSPath is where the chart's web pods mount the shared volume.
const DefaultNFSPath = "/mnt/openstudio"

// Checks builds a rollout's gates and preconditions from the clients it is given. The caller
// (the CLI) only passes the clients in; which checks run, and their rule ids, are decided here.
type Checks struct {
	Kube      *k8s.Clients
	Namespace string
	Target    *Target
	// Redis connects to the Redis masters. It is called at most once, and only when a check
	// needs Redis (the locks gate and the Redis preflight share the masters); the caller closes
	// them.
	Redis func(ctx context.Context) ([]redisconn.Master, error)
	// Now is the clock the stress report's age is measured with. The default is time.Now.
	Now func() time.Time

	masters []redisconn.Master
}

// redis connects to the Redis masters once; why names the check in the error.
func (c *Checks) redis(ctx context.Context, why string) ([]redisconn.Master, error) {
	if c.masters != nil {
		return c.masters, nil
	}
	if c.Redis == nil {
		return nil, fmt.Errorf("%s needs Redis: no Redis connection was given", why)
	}
	ms, err := c.Redis(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s needs Redis: %w", why, err)
	}
	c.masters = ms
	return ms, nil
}

func (c *Checks) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}
