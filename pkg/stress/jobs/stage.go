package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// slowPoll is the fastest poll a run does not warn about against a real job API: each status read
// of an active job runs kubectl and azcopy on the service's event loop.
const slowPoll = 500 * time.Millisecond

// stage is what follows the jobs profile's load (a burst of submits, each acknowledged job
// followed until it ends).
type stage struct{ e *stress.StageEnv }

// jobs prepares the jobs profile before anything is submitted: the ceiling (MaxActive, or the
// sandbox's GET /status), the body, a warning about fast polling, and one authenticated
// GET /v1/jobs per target (a refused token stops here).
func newStage(ctx context.Context, e *stress.StageEnv) (*stage, error) {
	cfg, o, hdr := e.Config(), OptionsOf(e.Config()), e.Header
	maxActive, sandboxOnly := cfg.MaxActive, true
	for _, t := range e.Targets() {
		if maxActive == 0 && t.Status.Sandbox && t.Status.MaxActive > 0 {
			maxActive = t.Status.MaxActive
		}
		sandboxOnly = sandboxOnly && t.Status.Sandbox
		hdr.TargetInfo = append(hdr.TargetInfo, stress.TargetInfo(t, false))
	}
	if maxActive == 0 {
		return nil, stress.FieldErrorf("MaxActive", "is needed: the job API does not tell its ceiling (elb-openapi has no GET /status); pass {MaxActive} N, the service-wide ELB_OPENAPI_MAX_ACTIVE_SUBMISSIONS the fixed service enforces")
	}
	p := &Submitter{Run: cfg.Run, Body: o.Body}
	hasKey, err := p.Prepare()
	if err != nil {
		return nil, stress.FieldErrorf("Body", ": %v", err)
	}
	if !hasKey {
		e.Notice("the {Body} has no idempotency_key: a submit that gets no answer cannot be replayed to learn its job, and stays ambiguous")
	}
	if o.Poll < slowPoll && !sandboxOnly {
		e.Notice("{Poll} %s: every status read of an active job makes elb-openapi run kubectl and azcopy on its event loop; polling this fast can starve its health check (poll every 1s or more)", o.Poll)
	}
	if err := e.Fleet().Check(ctx); err != nil {
		return nil, stress.JobsError(err, cfg.Header)
	}
	hdr.MaxActive, hdr.Grace = maxActive, cfg.Grace
	hdr.DispatchInterval, hdr.Poll, hdr.JobTimeout = o.DispatchInterval.String(), o.Poll.String(), o.JobTimeout.String()
	return &stage{e: e}, nil
}

// After implements stress.Stage: the load followed the jobs; it says what it saw.
func (s *stage) After(_ context.Context, _ bool, l *stress.Load, _ *history.Footer) (*snapshot.State, bool, error) {
	seen, err := stress.PayloadOf[loadSeen](l)
	if err != nil {
		return nil, false, fmt.Errorf("what following the jobs saw: %v", err)
	}
	if ae := seen.Refused; ae != nil {
		return nil, false, stress.JobsError(ae, s.e.Config().Header)
	}
	sum := seen.Jobs
	msg := fmt.Sprintf("followed %d jobs: %d ended, %d not finished, %d gone; %d seen requeued, %d submits replayed",
		sum.Followed-sum.NotFound, sum.Ended, sum.NotFinished, sum.Gone, sum.Requeued, sum.Replayed)
	if sum.Unanswered > 0 {
		msg += fmt.Sprintf("; %d submits got no answer: the jobs their keys name were looked for, %d found, %d never appeared", sum.Unanswered, sum.Found, sum.NotFound)
	}
	s.e.Phase(stress.PhaseFollow, msg)
	return nil, true, nil
}
