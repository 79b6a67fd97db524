package stress

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/report"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// JudgeOptions are the flags of `osctl stress judge`.
type JudgeOptions struct {
	IO      *cmdutil.IOStreams
	Factory *cmdutil.Factory

	History         string
	StateDir        string
	StatePod        string
	StateContainer  string
	StateMount      string
	Ignore          []string
	MinAcknowledged float64
	MinContended    float64
	MaxActive       int
	Grace           time.Duration
	Report          string
	JUnit           string
	HTML            string
	Format          output.Format
}

// NewCmdJudge builds `osctl stress judge`.
func NewCmdJudge(f *cmdutil.Factory, runF func(context.Context, *JudgeOptions) error) *cobra.Command {
	o := &JudgeOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "judge --history FILE [--state-dir DIR | --state-pod POD]",
		Short: "Give a saved stress run's verdict again, offline, from its history and the state",
		Long: `judge re-runs the verdict of a stress run without a server: it reads the history written
with --history and the state of the run's objects, and gives the same verdict and exit code as
the run did (0 clean and conclusive, 1 races, 2 inconclusive).`,
		Example: `  osctl stress judge --history run.jsonl --state-dir /tmp/osctl-sandbox-x -o json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.History == "" {
				return cmdutil.Usage("pass --history FILE (written by osctl stress --history)")
			}
			if o.StateDir != "" && o.StatePod != "" {
				return cmdutil.Usage("--state-dir and --state-pod both say where the state is: pass one")
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return judgeRun(cmd.Context(), o)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.History, "history", "", "the run's history file")
	fl.StringVar(&o.StateDir, "state-dir", "", "the shared volume's root on this machine")
	fl.StringVar(&o.StatePod, "state-pod", "", "read the state through one exec in this pod (namespace from -n)")
	fl.StringVar(&o.StateContainer, "state-container", "", "container of --state-pod (default its first)")
	fl.StringVar(&o.StateMount, "state-mount", "/mnt/openstudio", "the volume's mount path inside --state-pod")
	fl.StringSliceVar(&o.Ignore, "ignore", nil, "base-name globs of app-generated files (default the run's own list)")
	fl.Float64Var(&o.MinAcknowledged, "min-acknowledged", 0.5, "fraction of requests that must be acknowledged for a clean verdict")
	fl.Float64Var(&o.MinContended, "min-contended", 0.5, "fraction of analyses that must see two or more overlapping writes")
	fl.IntVar(&o.MaxActive, "max-active", 0, "jobs: the ceiling (default the run's)")
	fl.DurationVar(&o.Grace, "grace", 0, "jobs: how long a queued job may wait while capacity is free (default the run's)")
	fl.StringVar(&o.Report, "report", "", "write the JSON report to this file")
	fl.StringVar(&o.JUnit, "junit", "", "write a JUnit XML report to this file")
	fl.StringVar(&o.HTML, "html", "", "write an HTML report to this file")
	output.AddFlag(cmd, &o.Format)
	return cmd
}

func judgeRun(ctx context.Context, o *JudgeOptions) error {
	fh, err := os.Open(o.History)
	if err != nil {
		return fmt.Errorf("cannot read --history: %v", err)
	}
	h, err := history.Read(fh)
	fh.Close()
	if err != nil {
		return fmt.Errorf("%s: %v", o.History, err)
	}
	files := map[string]*os.File{}
	for _, p := range []string{o.Report, o.JUnit, o.HTML} {
		if p != "" && files[p] == nil {
			f, err := os.Create(p)
			if err != nil {
				closeAll(files)
				return fmt.Errorf("cannot write %s: %v", p, err)
			}
			files[p] = f
		}
	}
	defer closeAll(files)
	so := &Options{StateDir: o.StateDir, StatePod: o.StatePod, StateContainer: o.StateContainer, StateMount: o.StateMount, Factory: o.Factory}
	reader, _ := so.stateReader()
	var st *snapshot.State
	if reader != nil && h.Header.Profile == "openstudio" {
		st, err = reader.Read(ctx, detect.Dirs(h))
		if err != nil {
			return fmt.Errorf("reading the state: %v", err)
		}
	}
	j := detect.Judge(h, st, detect.Options{Ignore: o.Ignore, MinAcknowledged: o.MinAcknowledged, MinContended: o.MinContended, MaxActive: o.MaxActive, Grace: o.Grace})
	rep := FromHistory(h, o.Factory.Version)
	if h.Header.Profile == "http" {
		j = judgeHTTP(rep.Counts, j.Partial, o.MinAcknowledged)
	}
	rep.ApplyJudgement(j)
	rep.MaxReplicasValidated = replicasValidated(rep)
	if err := writeFiles(rep, files, o.Report, o.JUnit, o.HTML); err != nil {
		return err
	}
	if err := output.Print(o.IO.Out, o.Format, rep, func(w io.Writer) error { return printTable(w, rep) }); err != nil {
		return err
	}
	return verdictError(rep)
}

// FromHistory rebuilds a report's measurements from a history: counts, latency and requests in
// flight come from the load requests' own times.
func FromHistory(h *history.History, version string) *report.Report {
	r := &report.Report{Schema: report.Schema, SchemaVersion: report.SchemaVersion, OsctlVersion: version, Run: h.Header.Run, Profile: h.Header.Profile,
		Requests: h.Header.Requests, Concurrency: h.Header.Concurrency, Analyses: h.Header.Analyses, StartedAt: h.Header.Started}
	for _, t := range h.Header.Targets {
		r.Targets = append(r.Targets, report.Target{URL: t})
	}
	hist := hdrhistogram.New(1, int64(10*time.Minute/time.Microsecond), 3)
	var evs []flightEvent
	var first, last time.Time
	for i := range h.Records {
		rec := &h.Records[i]
		if rec.Kind != history.KindRequest || rec.Setup {
			continue
		}
		c := &r.Counts
		c.Total++
		switch rec.Outcome {
		case history.Acknowledged:
			c.Acknowledged++
		case history.Rejected:
			c.Rejected++
		default:
			c.Ambiguous++
		}
		switch {
		case rec.Error != "" && rec.Timeout:
			c.Timeouts++
		case rec.Error != "" && rec.Status == 0:
			c.Errors++
		case rec.Status == 503:
			c.Status503++
		case rec.Status >= 500:
			c.Status5xx++
		case rec.Status >= 400:
			c.Status4xx++
		case rec.Status >= 300:
			c.Status3xx++
		case rec.Status >= 200:
			c.Status2xx++
		}
		if rec.Start.IsZero() || rec.End.IsZero() {
			continue
		}
		if rec.Error == "" {
			_ = hist.RecordValue(max(rec.End.Sub(rec.Start).Microseconds(), 1))
		}
		evs = append(evs, flightEvent{rec.Start, 1}, flightEvent{rec.End, -1})
		if first.IsZero() || rec.Start.Before(first) {
			first = rec.Start
		}
		if rec.End.After(last) {
			last = rec.End
		}
	}
	r.Latency = attack.Summarize(hist)
	r.Histogram = report.Buckets(hist, 8)
	r.Timeline, r.PeakInFlight = timeline(evs, first, last)
	if d := last.Sub(first).Seconds(); d > 0 {
		r.Throughput = float64(r.Counts.Total) / d
	}
	if h.Footer != nil {
		r.FinishedAt = h.Footer.Finished
		r.StopReason = h.Footer.Reason
		r.Elapsed = r.FinishedAt.Sub(r.StartedAt).Seconds()
	}
	return r
}
