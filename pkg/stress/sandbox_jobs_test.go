package stress_test

import (
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/jobs"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

// TestJobsSplitQueueStrands: each replica admits 1 of the ceiling 2 (the naive fix, its ceiling
// read from the sandbox's GET /status); replica 1's jobs run 5x longer, so once replica 0 has
// drained its queue replica 1's jobs wait with a slot free: stranded, and no ceiling.
func TestJobsSplitQueueStrands(t *testing.T) {
	testenv.SkipIfShort(t, "jobs of seconds on sandbox replicas")
	sb := serve(t, 2, func(c *sandbox.Config) {
		c.Queue, c.JobDuration, c.JobDurationSkew, c.Jobs.DispatchInterval = sandbox.QueueSplit, time.Second, 4, time.Second
	})
	r := runOn(t, sb, func(c *stress.Config) {
		c.Profile, c.Requests, c.Concurrency, c.Grace = stress.ProfileJobs, 8, 8, verdict.Duration(500*time.Millisecond)
		c.Options = jobs.Options{DispatchInterval: time.Second}
	})
	if r.Code() != 1 || r.rep.FindingCounts["stranded"] == 0 || r.rep.FindingCounts["ceiling"] != 0 || len(r.rep.FindingCounts) != 1 {
		t.Fatalf("split: exit %d verdict %s findings %v reasons %v", r.Code(), r.rep.Verdict, r.rep.FindingCounts, r.rep.Reasons)
	}
}
