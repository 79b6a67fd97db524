package stress

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// tokenHeader carries elb-openapi's API token.
const tokenHeader = "X-ELB-API-Token"

// slowPoll is the fastest poll osctl does not warn about against a real job API: each status
// read of an active job runs kubectl and azcopy on the service's event loop.
const slowPoll = 500 * time.Millisecond

func addJobsFlags(cmd *cobra.Command, o *Options) {
	fl := cmd.Flags()
	fl.DurationVar(&o.Poll, "poll", profile.DefaultJobPoll, "jobs: how often each job's status is read (a read of an active job is costly for elb-openapi: below 500ms osctl warns)")
	fl.DurationVar(&o.JobTimeout, "job-timeout", profile.DefaultJobTimeout, "jobs: how long one job is followed; a job still active then is not finished (the run is inconclusive about it)")
	fl.IntVar(&o.MaxActive, "max-active", 0, "jobs: the service-wide ceiling of active jobs, ELB_OPENAPI_MAX_ACTIVE_SUBMISSIONS of the fixed service (required unless the sandbox's GET /status gives it)")
	fl.DurationVar(&o.Grace, "grace", time.Second, "jobs: how long a queued job may wait while capacity is free, beyond --dispatch-interval and --poll, before it is stranded")
	fl.DurationVar(&o.DispatchInterval, "dispatch-interval", 5*time.Second, "jobs: the service's dispatch tick (ELB_OPENAPI_DISPATCH_INTERVAL_SECONDS): a correct replica may leave a slot free this long")
}

func (o *Options) validateJobs() error {
	switch {
	case o.JobTimeout <= 0:
		return cmdutil.Usage("--job-timeout %s: must be above 0", o.JobTimeout)
	case o.Grace < 0:
		return cmdutil.Usage("--grace %s: must not be negative", o.Grace)
	case o.DispatchInterval < 0 || o.DispatchInterval > time.Hour:
		return cmdutil.Usage("--dispatch-interval %s: use 0 to 1h (elb-openapi's default is 5s)", o.DispatchInterval)
	case o.MaxActive < 0:
		return cmdutil.Usage("--max-active %d: must be 1 or more", o.MaxActive)
	}
	return nil
}

// headerSecrets are the --header values: any of them may be a credential (the API token).
func headerSecrets(h http.Header) *redact.Secrets {
	s := &redact.Secrets{}
	for _, vs := range h {
		for _, v := range vs {
			s.Add(v)
		}
	}
	return s
}

// setupJobs prepares the jobs profile before anything is submitted: the ceiling (--max-active,
// or the sandbox's GET /status), the body, a warning about fast polling, and one authenticated
// GET /v1/jobs per target (a refused token stops here).
func setupJobs(ctx context.Context, o *Options, run string, targets []profile.Target, client profile.Doer, hdrs http.Header,
	record profile.Recorder, hdr *history.Header, notice func(string, ...any)) (*profile.Jobs, error) {
	for _, vs := range hdrs {
		for _, v := range vs {
			o.Factory.Secrets.Add(v)
		}
	}
	maxActive, sandboxOnly := o.MaxActive, true
	for _, t := range targets {
		if maxActive == 0 && t.Status.Sandbox && t.Status.MaxActive > 0 {
			maxActive = t.Status.MaxActive
		}
		sandboxOnly = sandboxOnly && t.Status.Sandbox
	}
	if maxActive == 0 {
		return nil, cmdutil.Usage("the job API does not tell its ceiling (elb-openapi has no GET /status): pass --max-active N, the service-wide ELB_OPENAPI_MAX_ACTIVE_SUBMISSIONS the fixed service enforces")
	}
	p := &profile.Jobs{Run: run, Targets: targets, Requests: o.Requests, Client: client, Record: record, Now: o.Factory.Now,
		Body: o.Body, Poll: o.Poll, Timeout: o.JobTimeout, Header: hdrs}
	hasKey, err := p.Prepare()
	if err != nil {
		return nil, cmdutil.Usage("--body: %v", err)
	}
	if !hasKey {
		notice("the --body has no idempotency_key: a submit that gets no answer cannot be replayed to learn its job, and stays ambiguous")
	}
	if o.Poll < slowPoll && !sandboxOnly {
		notice("--poll %s: every status read of an active job makes elb-openapi run kubectl and azcopy on its event loop; polling this fast can starve its health check (poll every 1s or more)", o.Poll)
	}
	if err := p.Check(ctx); err != nil {
		return nil, jobsError(err, hdrs)
	}
	hdr.MaxActive, hdr.Grace = maxActive, o.Grace.String()
	hdr.DispatchInterval, hdr.Poll, hdr.JobTimeout = o.DispatchInterval.String(), o.Poll.String(), o.JobTimeout.String()
	return p, nil
}

// jobsError turns a refused token into the message that says what to do; the header values
// are masked in whatever the service answered.
func jobsError(err error, hdrs http.Header) error {
	sec := headerSecrets(hdrs)
	var ae *profile.AuthError
	if !errors.As(err, &ae) {
		return errors.New(sec.String(err.Error()))
	}
	// (Worded so that no "Token: value" appears: error output masks whatever follows one.)
	hint := "pass the service's token (its ELB_OPENAPI_API_TOKEN) in the " + tokenHeader + " header, with --header"
	if hdrs.Get(tokenHeader) != "" {
		hint = "the " + tokenHeader + " header given with --header was refused: check it against the service's ELB_OPENAPI_API_TOKEN"
	}
	return fmt.Errorf("%s; %s", sec.String(ae.Error()), hint)
}

// jobsFollowed says what following the jobs saw, and fails the run (exit 2) when the token was
// refused during it.
func jobsFollowed(w io.Writer, p *profile.Jobs, hdrs http.Header) error {
	if ae := p.Refused(); ae != nil {
		return jobsError(ae, hdrs)
	}
	s := p.Summary()
	fmt.Fprintf(w, "followed %d jobs: %d ended, %d not finished, %d gone; %d seen requeued, %d submits replayed\n",
		s.Followed, s.Ended, s.NotFinished, s.Gone, s.Requeued, s.Replayed)
	return nil
}
