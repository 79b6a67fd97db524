package rollout

import (
	"context"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/redischeck"
	"github.com/osctl/osctl/pkg/redisconn"
)

// redisPreflight runs `osctl preflight redis` on the masters.
func redisPreflight(ctx context.Context, ms []redisconn.Master) []preflight.Result {
	return redischeck.Check(ctx, ms, redischeck.Options{})
}
