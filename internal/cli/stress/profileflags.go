package stress

import (
	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	pstress "github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/httpload"
	"github.com/osctl/osctl/pkg/stress/jobs"
	"github.com/osctl/osctl/pkg/stress/openstudio"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// profileFlags are the flags of each profile's own options (pkg/stress.Config.Options): the one
// file of this package that imports the profile packages. Their defaults are the profiles'
// (DefaultOptions).
type profileFlags struct {
	openStudio openstudio.Options
	jobs       jobs.Options
	http       httpload.Options
	mix, body  string
}

// add binds the profiles' flags.
func (p *profileFlags) add(cmd *cobra.Command) {
	ds, dj, dh := openstudio.DefaultOptions(), jobs.DefaultOptions(), httpload.DefaultOptions()
	fl := cmd.Flags()
	fl.IntVar(&p.openStudio.Analyses, "analyses", 0, "openstudio: analyses to spread the requests over (default requests/100, at least 1, at most 100)")
	fl.StringVar(&p.openStudio.Project, "project", "", "openstudio: use this existing project id instead of creating one")
	fl.StringVar(&p.mix, "mix", ds.Mix.String(), "openstudio: relative weights of the load operations")
	fl.BoolVar(&p.openStudio.AllowStart, "allow-start", false, "openstudio: send start actions to targets that are not the sandbox (launches simulations on a real server)")
	fl.StringVar(&p.http.Method, "method", dh.Method, "http: request method")
	fl.StringVar(&p.body, "body", "", "http, jobs: request body template; {{nonce}} and {{seq}} are replaced per request (jobs: default a Mode B submit keyed by the nonce)")
	fl.DurationVar(&p.jobs.Poll, "poll", dj.Poll, "jobs: how often each job's status is read (a read of an active job is costly for elb-openapi: below 500ms osctl warns)")
	fl.DurationVar(&p.jobs.JobTimeout, "job-timeout", dj.JobTimeout, "jobs: how long one job is followed; a job still active then is not finished (the run is inconclusive about it)")
	fl.DurationVar(&p.jobs.DispatchInterval, "dispatch-interval", dj.DispatchInterval, "jobs: the service's dispatch tick (ELB_OPENAPI_DISPATCH_INTERVAL_SECONDS): a correct replica may leave a slot free this long")
	fl.DurationVar(&p.openStudio.BackgroundWait, "background-wait", ds.BackgroundWait, "openstudio: the last third of the load (at most the requests beyond the first --concurrency) is sent in three parts, each once a background worker of the target (the Resque worker that extracts a started analysis) is seen taking a job, so that uploads and extractions overlap; each part waits at most this long (0 holds nothing back)")
	cmdutil.RenamedFlag(cmd, "worker-wait", "background-wait") // its name until this release
	fl.DurationVar(&p.openStudio.SettleTimeout, "settle-timeout", ds.SettleTimeout, "openstudio: the ceiling of the wait for the analyses' jobs to leave \"queued\" and the files to stop changing before reading them; the wait goes on while jobs make progress (the real server starts one analysis at a time)")
	fl.DurationVar(&p.openStudio.SettleQuiet, "settle-quiet", ds.SettleQuiet, "openstudio: stop that wait once no job changed state and the files did not change for this long (a job whose extraction failed stays queued for good)")
}

// options are the options of the named profile from its flags (nil for a profile without
// flags of its own, or an unknown one: Config.Check says so).
func (p *profileFlags) options(name string) (pstress.Options, error) {
	p.jobs.Body, p.http.Body = p.body, p.body
	if p.openStudio.Profile() == name {
		mix, err := profile.ParseMix(p.mix)
		if err != nil {
			return nil, cmdutil.Usage("%w", err)
		}
		p.openStudio.Mix = mix
	}
	for _, o := range []pstress.Options{p.openStudio, p.jobs, p.http} {
		if o.Profile() == name {
			return o, nil
		}
	}
	return nil, nil
}
