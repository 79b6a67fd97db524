// Package cleanup is `osctl stress cleanup`: remove what one stress run left.
package cleanup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/internal/cli/stress/headerflags"
	pstress "github.com/osctl/osctl/pkg/stress"
	stresscleanup "github.com/osctl/osctl/pkg/stress/cleanup"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	_ "github.com/osctl/osctl/pkg/stress/profiles" // the profiles a history may name
)

// CleanupOptions are the flags of `osctl stress cleanup`.
type CleanupOptions struct {
	IO       *cmdutil.IOStreams
	Factory  *cmdutil.Factory
	Run      string
	StateDir string
	History  string
	Target   string
	Headers  headerflags.Flags
	Timeout  time.Duration
	InFlight time.Duration
	DryRun   bool
	Yes      bool
	Format   output.Format
}

// NewCmdCleanup builds `osctl stress cleanup`.
func NewCmdCleanup(f *cmdutil.Factory, runF func(context.Context, *CleanupOptions) error) *cobra.Command {
	o := &CleanupOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "cleanup --run ID --state-dir DIR | --history FILE [--state-dir DIR]",
		Short: "Remove what one stress run left: its analyses and files, or a jobs run's jobs",
		Long: `cleanup removes the directories of one stress run's own objects: the analyses and data
point result directories whose names carry the run id (osctl stress prints it, and it is in the
report and history). Nothing else on the volume is touched. It asks before removing (or pass
--yes); --dry-run lists what would go.

With --history FILE of an openstudio run and --state-dir DIR, cleanup also deletes the run's
analyses through the server's API (DELETE /analyses/:id.json; --target URL, else the run's
first target), unless the target is the sandbox. An analysis whose GET answers
{"analysis":null} is reported as already gone and is not sent a DELETE. The files are still
removed from the volume itself: DELETE leaves the result files, and removes the extraction only
later, in a background job.

With --history FILE of a jobs run, cleanup deletes the run's jobs through the job API
(DELETE /v1/jobs/{id}), each on the replica that accepted it, then checks that each answers
404. It deletes only jobs of the run: those an answer named, and those the idempotency key of a
submit that got no answer names (elb-openapi derives a job's id from its key), never another
client's. A submit that got no answer may still be running at the service and make its job
later: such jobs are looked for again every second, and deleted should they appear or come
back, until --in-flight-wait after their submit was sent; one never found is reported as not
found. The token goes in --header 'X-ELB-API-Token: TOKEN', as for the run, or (off the command
line) in --header-file FILE or $OSCTL_STRESS_HEADERS, one 'Name: value' per line.

A history is a file anyone may have written: cleanup acts only on what the run can be shown to
have made. Jobs are sent a DELETE only on the targets of the history's header, and only when
the record carries the run's nonce and the job id holds it or is the one its idempotency key
names; an analysis is deleted only when the server still names it as the run did; directories
go by whole ids (--run 7c0f5a2e never removes 7c0f5a2e-3c1d-...). Whatever is left alone is
listed with its reason, and cleanup exits 1. No redirect is followed: it is an error naming its
Location. A history whose last line was cut by a crash is read without that line, as a
partial run.`,
		Example: `  osctl stress cleanup --run 1a2b3c4d --state-dir /mnt/openstudio --dry-run
  osctl stress cleanup --history run.jsonl --state-dir /mnt/openstudio --target http://web --yes
  osctl stress cleanup --history jobs-run.jsonl --header-file elb-headers --dry-run`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(o, func(*cobra.Command, []string) error { return o.validate() }, runF, cleanupRun),
	}
	cmdutil.NameSettings(cmd, cmdutil.Settings{"StateDir": "--state-dir", "Target": "--target", "History": "--history"})
	fl := cmd.Flags()
	fl.StringVar(&o.Run, "run", "", "the run id whose objects to remove")
	fl.StringVar(&o.StateDir, "state-dir", "", "the shared volume's root on this machine")
	fl.StringVar(&o.History, "history", "", "a run's history (osctl stress --history): its run id, profile and targets say what to remove (an openstudio run's analyses through the API, with --state-dir for its files; a jobs run's jobs)")
	fl.StringVar(&o.Target, "target", "", "with an openstudio --history: the server to delete the analyses through (default the run's first target)")
	o.Headers.Add(cmd, "with --history")
	fl.DurationVar(&o.Timeout, "timeout", 6*time.Minute, "with --history: timeout of one request (deleting an active job makes elb-openapi run elastic-blast delete, up to 5 minutes)")
	fl.DurationVar(&o.InFlight, "in-flight-wait", profile.DefaultInFlightWait, "with a jobs --history: how long after a submit that got no answer was sent its job is looked for")
	fl.BoolVar(&o.DryRun, "dry-run", false, "list what would be removed, remove nothing")
	fl.BoolVar(&o.Yes, "yes", false, "remove without asking")
	output.AddFlag(cmd, &o.Format)
	return cmd
}

func (o *CleanupOptions) validate() error {
	switch {
	case o.History != "" && o.Run != "":
		return cmdutil.Usage("--history says which run: leave out --run")
	case o.History != "":
		if o.Timeout <= 0 {
			return cmdutil.Usage("--timeout %s: must be above 0", o.Timeout)
		}
		if o.InFlight <= 0 {
			return cmdutil.Usage("--in-flight-wait %s: must be above 0", o.InFlight)
		}
		return nil
	case !profile.ValidRunID(o.Run):
		return cmdutil.Usage("--run %q: pass the run id, 8 hex digits (in the run's report as \"run\")", o.Run)
	case o.StateDir == "":
		return cmdutil.Usage("pass --state-dir DIR, the volume's root")
	}
	return nil
}

func cleanupRun(ctx context.Context, o *CleanupOptions) error {
	plan, hdrs, err := o.plan(ctx)
	if err != nil {
		var ue *stresscleanup.UsageError
		if errors.As(err, &ue) {
			return cmdutil.Usage("%v", ue)
		}
		return pstress.JobsError(err, hdrs)
	}
	show := func(r *stresscleanup.Result) error {
		return output.Print(o.IO.Out, o.Format, r, func(w io.Writer) error {
			for _, l := range r.Lines() {
				fmt.Fprintln(w, l)
			}
			return nil
		})
	}
	if o.DryRun || plan.Empty() {
		plan.DryRun = o.DryRun
		if err := show(&plan.Result); err != nil {
			return err
		}
		return leftAlone(&plan.Result)
	}
	if err := cmdutil.Confirm(o.IO, o.Yes, plan.Question()); err != nil {
		return err
	}
	res, err := plan.Apply(ctx)
	if perr := show(res); perr != nil {
		return perr
	}
	if err != nil {
		return pstress.JobsError(err, hdrs)
	}
	return leftAlone(res)
}

// leftAlone is exit 1 when the history named objects the run cannot be shown to have made: they
// were left alone (the lines above say which and why), and someone should look at the history.
func leftAlone(r *stresscleanup.Result) error {
	if r.LeftAlone() > 0 {
		return cmdutil.ErrSilentFound
	}
	return nil
}

func (o *CleanupOptions) plan(ctx context.Context) (*stresscleanup.Plan, http.Header, error) {
	if o.History == "" {
		p, err := stresscleanup.Files(o.StateDir, o.Run)
		return p, nil, err
	}
	hdrs, note, err := o.Headers.Parse(o.Factory.Secrets)
	if err != nil {
		return nil, nil, err
	}
	if note != "" {
		fmt.Fprintln(o.IO.ErrOut, "notice: "+note)
	}
	// The http profile leaves nothing to clean up: its records are not kept (a long run has millions).
	h, err := history.ScanFile(o.History, func(hd *history.Header, _ *history.Record) bool { return !hd.Kind().Records })
	if err != nil {
		return nil, hdrs, err
	}
	if n := h.CutNotice(); n != "" {
		fmt.Fprintln(o.IO.ErrOut, "warning: "+o.History+": "+n)
	}
	opts := stresscleanup.Options{StateDir: o.StateDir, Header: hdrs, Client: stresscleanup.Client(o.Timeout), InFlightWait: o.InFlight}
	if o.Target != "" {
		us, err := profile.ParseTargets([]string{o.Target})
		if err != nil {
			return nil, hdrs, cmdutil.Usage("--target: %v", err)
		}
		opts.Target = us[0]
	}
	p, err := stresscleanup.ForHistory(ctx, h, opts)
	return p, hdrs, err
}
