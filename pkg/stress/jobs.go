package stress

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// TokenHeader carries elb-openapi's API token.
const TokenHeader = "X-ELB-API-Token"

// slowPoll is the fastest poll a run does not warn about against a real job API: each status read
// of an active job runs kubectl and azcopy on the service's event loop.
const slowPoll = 500 * time.Millisecond

// jobsStage is what follows the jobs profile's load (a burst of submits, each acknowledged job
// followed until it ends).
type jobsStage struct{ r *runner }

// jobs prepares the jobs profile before anything is submitted: the ceiling (MaxActive, or the
// sandbox's GET /status), the body, a warning about fast polling, and one authenticated
// GET /v1/jobs per target (a refused token stops here).
func (r *runner) jobs(ctx context.Context) (*jobsStage, error) {
	cfg := r.cfg
	maxActive, sandboxOnly := cfg.MaxActive, true
	for _, t := range r.targets {
		if maxActive == 0 && t.Status.Sandbox && t.Status.MaxActive > 0 {
			maxActive = t.Status.MaxActive
		}
		sandboxOnly = sandboxOnly && t.Status.Sandbox
		r.hdr.TargetInfo = append(r.hdr.TargetInfo, targetInfo(t, false))
	}
	if maxActive == 0 {
		return nil, fieldErr("MaxActive", "is needed: the job API does not tell its ceiling (elb-openapi has no GET /status); pass {MaxActive} N, the service-wide ELB_OPENAPI_MAX_ACTIVE_SUBMISSIONS the fixed service enforces")
	}
	p := &profile.Jobs{Run: cfg.Run, Body: cfg.Body}
	hasKey, err := p.Prepare()
	if err != nil {
		return nil, fieldErr("Body", ": %v", err)
	}
	if !hasKey {
		r.notice("the {Body} has no idempotency_key: a submit that gets no answer cannot be replayed to learn its job, and stays ambiguous")
	}
	if cfg.Poll < slowPoll && !sandboxOnly {
		r.notice("{Poll} %s: every status read of an active job makes elb-openapi run kubectl and azcopy on its event loop; polling this fast can starve its health check (poll every 1s or more)", cfg.Poll)
	}
	if err := r.fleet.CheckJobs(ctx); err != nil {
		return nil, JobsError(err, cfg.Header)
	}
	r.hdr.MaxActive, r.hdr.Grace = maxActive, cfg.Grace.String()
	r.hdr.DispatchInterval, r.hdr.Poll, r.hdr.JobTimeout = cfg.DispatchInterval.String(), cfg.Poll.String(), cfg.JobTimeout.String()
	return &jobsStage{r: r}, nil
}

func (s *jobsStage) after(_ context.Context, _ bool, l *Load, _ *history.Footer) (*snapshot.State, bool, error) {
	if ae := l.Refused; ae != nil {
		return nil, false, JobsError(ae, s.r.cfg.Header)
	}
	sum := l.Jobs
	msg := fmt.Sprintf("followed %d jobs: %d ended, %d not finished, %d gone; %d seen requeued, %d submits replayed",
		sum.Followed-sum.NotFound, sum.Ended, sum.NotFinished, sum.Gone, sum.Requeued, sum.Replayed)
	if sum.Unanswered > 0 {
		msg += fmt.Sprintf("; %d submits got no answer: the jobs their keys name were looked for, %d found, %d never appeared", sum.Unanswered, sum.Found, sum.NotFound)
	}
	s.r.d.Observer.phase(PhaseFollow, msg)
	return nil, true, nil
}

// JobsError turns a refused token into the message that says what to do; header values are masked
// in whatever the service answered.
func JobsError(err error, hdrs http.Header) error {
	sec := &redact.Secrets{}
	for _, vs := range hdrs {
		for _, v := range vs {
			sec.Add(v)
		}
	}
	var ae *profile.AuthError
	if !errors.As(err, &ae) {
		return errors.New(sec.String(err.Error()))
	}
	// (Worded so that no "Token: value" appears: error output masks whatever follows one.)
	hint := "pass the service's token (its ELB_OPENAPI_API_TOKEN) in the " + TokenHeader + " header, with {Header}"
	if hdrs.Get(TokenHeader) != "" {
		hint = "the " + TokenHeader + " header given with {Header} was refused: check it against the service's ELB_OPENAPI_API_TOKEN"
	}
	return fmt.Errorf("%s; %s", sec.String(ae.Error()), hint)
}

// httpStage is what follows the http profile's load (the routes themselves, status codes only):
// nothing.
type httpStage struct{}

func (r *runner) httpLoad() httpStage {
	for _, t := range r.targets {
		r.hdr.TargetInfo = append(r.hdr.TargetInfo, targetInfo(t, false))
	}
	return httpStage{}
}

func (httpStage) after(context.Context, bool, *Load, *history.Footer) (*snapshot.State, bool, error) {
	return nil, true, nil
}
