package stress

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

func addCleanupHistoryFlags(cmd *cobra.Command, o *CleanupOptions) {
	fl := cmd.Flags()
	fl.StringVar(&o.History, "history", "", "a run's history (osctl stress --history): its run id, profile and targets say what to remove (an openstudio run's analyses through the API, with --state-dir for its files; a jobs run's jobs)")
	fl.StringVar(&o.Target, "target", "", "with an openstudio --history: the server to delete the analyses through (default the run's first target)")
	fl.StringArrayVar(&o.Headers, "header", nil, "with --history: request header 'Name: value' (repeatable; 'X-ELB-API-Token: TOKEN'); values are never printed")
	fl.DurationVar(&o.Timeout, "timeout", 6*time.Minute, "with --history: timeout of one request (deleting an active job makes elb-openapi run elastic-blast delete, up to 5 minutes)")
}

// JobsCleanupResult is what cleanup of a jobs run did (or would do, with --dry-run).
type JobsCleanupResult struct {
	Run         string                `json:"run"`
	Profile     string                `json:"profile"`
	DryRun      bool                  `json:"dry_run"`
	Jobs        []profile.JobDeletion `json:"jobs"`
	Deleted     int                   `json:"deleted"`
	AlreadyGone int                   `json:"already_gone"`
	NotDeleted  int                   `json:"not_deleted"`
	// Unknown counts submits that got no answer and no replay: jobs no one knows the id of.
	Unknown int `json:"unknown_submits"`
}

// cleanupHistory removes what the run of a history left; the profile says how.
func cleanupHistory(ctx context.Context, f *cmdutil.Factory, o *CleanupOptions) error {
	if o.Run != "" {
		return cmdutil.Usage("--history says which run: leave out --run")
	}
	hdrs, err := parseHeaders(o.Headers)
	if err != nil {
		return err
	}
	for _, vs := range hdrs {
		for _, v := range vs {
			f.Secrets.Add(v)
		}
	}
	if o.Timeout <= 0 {
		return cmdutil.Usage("--timeout %s: must be above 0", o.Timeout)
	}
	fh, err := os.Open(o.History)
	if err != nil {
		return fmt.Errorf("cannot read --history: %v", err)
	}
	h, err := history.Read(fh)
	fh.Close()
	if err != nil {
		return fmt.Errorf("%s: %v", o.History, err)
	}
	switch h.Header.Profile {
	case "jobs":
		if o.StateDir != "" || o.Target != "" {
			return cmdutil.Usage("a jobs run leaves no files, and its history names each job's replica: leave out --state-dir and --target")
		}
		return cleanupJobs(ctx, o, h, hdrs)
	case "openstudio":
		return cleanupOpenStudio(ctx, o, h)
	default:
		return cmdutil.Usage("--history %s is of a %s run, which leaves nothing to clean up", o.History, h.Header.Profile)
	}
}

// cleanupJobs deletes a jobs run's jobs, each on the replica that accepted it, and checks that
// each then answers 404.
func cleanupJobs(ctx context.Context, o *CleanupOptions, h *history.History, hdrs http.Header) error {
	jobs, unknown, err := profile.RunJobs(h)
	if err != nil {
		return fmt.Errorf("%s: %v", o.History, err)
	}
	res := JobsCleanupResult{Run: h.Header.Run, Profile: h.Header.Profile, DryRun: o.DryRun, Jobs: []profile.JobDeletion{}, Unknown: unknown}
	show := func() error {
		return output.Print(o.IO.Out, o.Format, res, func(w io.Writer) error { return printJobsCleanup(w, res) })
	}
	if o.DryRun || len(jobs) == 0 {
		for _, j := range jobs {
			res.Jobs = append(res.Jobs, profile.JobDeletion{JobRef: j, Outcome: "would delete"})
		}
		return show()
	}
	replicas := map[string]bool{}
	for _, j := range jobs {
		replicas[j.Target] = true
	}
	if err := cmdutil.Confirm(o.IO, o.Yes, fmt.Sprintf("Delete %d jobs of stress run %s on %d replica(s)?", len(jobs), h.Header.Run, len(replicas))); err != nil {
		return err
	}
	client := &http.Client{Timeout: o.Timeout}
	defer client.CloseIdleConnections()
	dels, derr := (&profile.JobCleanup{Client: client, Header: hdrs}).Delete(ctx, jobs)
	res.Jobs = append(res.Jobs, dels...)
	for _, d := range dels {
		switch d.Outcome {
		case profile.JobDeleted:
			res.Deleted++
		case profile.JobAlreadyGone:
			res.AlreadyGone++
		default:
			res.NotDeleted++
		}
	}
	if err := show(); err != nil {
		return err
	}
	if derr != nil {
		return fmt.Errorf("%v (the jobs listed above were handled before it)", jobsError(derr, hdrs))
	}
	if res.NotDeleted > 0 {
		return fmt.Errorf("%d of %d jobs were not deleted (listed above); run cleanup again to retry", res.NotDeleted, len(jobs))
	}
	return nil
}

func printJobsCleanup(w io.Writer, r JobsCleanupResult) error {
	for _, d := range r.Jobs {
		line := fmt.Sprintf("%s job %s on %s", d.Outcome, d.ID, d.Target)
		if d.Error != "" {
			line += ": " + d.Error
		}
		fmt.Fprintln(w, line)
	}
	if r.Unknown > 0 {
		fmt.Fprintf(w, "%d submits got no answer and no replay: any job they made is unknown (look for it in GET /v1/jobs)\n", r.Unknown)
	}
	if r.DryRun {
		_, err := fmt.Fprintf(w, "run %s: would delete %d jobs\n", r.Run, len(r.Jobs))
		return err
	}
	_, err := fmt.Fprintf(w, "run %s: deleted %d jobs, %d already gone, %d not deleted\n", r.Run, r.Deleted, r.AlreadyGone, r.NotDeleted)
	return err
}
