package stress_test

import (
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/openstudio"
)

// lockingLoad is the load of the locking tests: 2000 requests, 500 in flight, over 20 analyses.
// A racy run's failed extractions stay queued for good, and the settle wait would sit out its
// default minute of quiet for them: 5 s of quiet ends it (a clean run settles before).
func lockingLoad(c *stress.Config) {
	c.Requests, c.Concurrency = 2000, 500
	openStudio(c, func(o *openstudio.Options) { o.Analyses, o.SettleQuiet = 20, 5*time.Second })
}

func locking(l sandbox.Locking) func(*sandbox.Config) {
	return func(c *sandbox.Config) { c.Locking = l }
}

// TestSandboxLockingNoneRaces: three replicas that write in place with no lock (the real app)
// race.
func TestSandboxLockingNoneRaces(t *testing.T) {
	testenv.SkipIfShort(t, "a load of 2000 requests on sandbox replicas")
	sb := serve(t, 3, locking(sandbox.LockingNone))
	requireRaces(t, runOn(t, sb, lockingLoad))
}

// TestSandboxLockingLocal: a per-process mutex is enough for one replica, not for three.
func TestSandboxLockingLocal(t *testing.T) {
	testenv.SkipIfShort(t, "loads of 2000 requests on sandbox replicas")
	t.Run("1 replica clean", func(t *testing.T) {
		sb := serve(t, 1, locking(sandbox.LockingLocal))
		requireClean(t, runOn(t, sb, lockingLoad))
	})
	t.Run("3 replicas races", func(t *testing.T) {
		sb := serve(t, 3, locking(sandbox.LockingLocal))
		requireRaces(t, runOn(t, sb, lockingLoad))
	})
}
