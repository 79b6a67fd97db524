package stress

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/net/http/httpguts"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/report"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// postTimeout bounds the work done after Ctrl-C (read-backs, reading the state, reports).
const postTimeout = 30 * time.Second

// recorder writes records to the history file (when one was asked for) and keeps them for the
// verdict (unless the profile needs none).
type recorder struct {
	mu   sync.Mutex
	w    *history.Writer
	keep bool
	recs []history.Record
}

func (r *recorder) record(rec *history.Record) {
	if r.w != nil {
		_ = r.w.Write(rec)
	}
	if r.keep && rec.Kind != history.KindHeader && rec.Kind != history.KindFooter {
		r.mu.Lock()
		r.recs = append(r.recs, *rec)
		r.mu.Unlock()
	}
}

func (r *recorder) records() []history.Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.recs
}

func runStress(ctx context.Context, o *Options) error {
	errOut := o.IO.ErrOut
	urls, err := profile.ParseTargets(o.Targets)
	if err != nil {
		return cmdutil.Usage("%v", err)
	}
	hdrs, err := parseHeaders(o.Headers)
	if err != nil {
		return err
	}
	mix := profile.DefaultMix
	if o.Profile == "openstudio" {
		if mix, err = profile.ParseMix(o.Mix); err != nil {
			return cmdutil.Usage("%v", err)
		}
	}
	// Open every output file before sending anything: a bad path fails now, not after the load.
	files := map[string]*os.File{}
	for _, p := range []string{o.History, o.Report, o.JUnit, o.HTML} {
		if p == "" || files[p] != nil {
			continue
		}
		fh, err := os.Create(p)
		if err != nil {
			closeAll(files)
			return fmt.Errorf("cannot write %s: %v", p, err)
		}
		files[p] = fh
	}
	defer closeAll(files)

	runID := profile.NewRunID()
	var notices []string
	notice := func(format string, a ...any) {
		s := fmt.Sprintf(format, a...)
		notices = append(notices, s)
		fmt.Fprintln(errOut, "notice: "+s)
	}
	// Each worker keeps a connection to every target it sends to.
	limit, lerr := attack.RaiseFileLimit(uint64(o.Concurrency)*uint64(len(urls)) + 512)
	if lerr != nil {
		notice("%v: expect connection errors past about %d requests in flight", lerr, limit)
	}
	// The load goes through per-worker connections; setup, probes, read-backs and job polls
	// through one shared Transport.
	conns := attack.NewConns(o.Concurrency, o.Timeout)
	defer conns.Close()
	client := attack.NewClient(o.Concurrency, o.Timeout)
	defer client.CloseIdleConnections()

	targets := make([]profile.Target, len(urls))
	for i, u := range urls {
		targets[i] = profile.Target{URL: u}
	}
	if o.Profile != "http" {
		for i, u := range urls {
			targets[i] = profile.Probe(ctx, client, u)
			if !targets[i].Reachable {
				return fmt.Errorf("target %s is not reachable: %s", u.Redacted(), targets[i].ProbeErr)
			}
		}
	}
	rec := &recorder{keep: o.Profile != "http"}
	if fh := files[o.History]; fh != nil {
		rec.w = history.NewWriter(fh)
	}
	hdr := history.Header{Schema: history.SchemaVersion, Run: runID, Profile: o.Profile, Requests: o.Requests, Concurrency: o.Concurrency,
		Ignore: o.Ignore, Started: o.Factory.Now().UTC(), Version: o.Factory.Version}
	for _, u := range urls {
		hdr.Targets = append(hdr.Targets, u.Redacted())
	}
	rep := &report.Report{Schema: report.Schema, SchemaVersion: report.SchemaVersion, OsctlVersion: o.Factory.Version, Run: runID, Profile: o.Profile,
		Requests: o.Requests, Concurrency: o.Concurrency, Rate: o.Rate, FileLimit: limit}
	if o.Duration > 0 {
		rep.Duration = o.Duration.String()
	}

	var (
		src       attack.Source
		eventLoop bool
		osp       *profile.OpenStudio
		jobs      *profile.Jobs
		startIdx  []int
	)
	for i, t := range targets {
		rt := report.Target{URL: t.URL.Redacted(), Sandbox: t.Status.Sandbox, Locking: t.Status.Locking, Queue: t.Status.Queue, MaxActive: t.Status.MaxActive}
		if t.Status.Sandbox {
			r := t.Status.Replica
			rt.Replica = &r
		}
		if o.Profile == "openstudio" && (t.Status.Sandbox || o.AllowStart) {
			rt.StartAllowed = true
			startIdx = append(startIdx, i)
		}
		rep.Targets = append(rep.Targets, rt)
	}
	switch o.Profile {
	case "openstudio":
		a := o.Analyses
		if a == 0 {
			a = min(max(o.Requests/100, 1), 100)
		}
		rep.Analyses, hdr.Analyses = a, a
		if mix.Start > 0 && len(startIdx) < len(targets) {
			if len(startIdx) == 0 {
				notice("start left out of the mix: no target says it is the sandbox (GET /status), and a start launches simulations on a real server; pass --allow-start to send it anyway")
			} else {
				notice("start goes only to the %d of %d targets that say they are the sandbox", len(startIdx), len(targets))
			}
		}
		osp = &profile.OpenStudio{Run: runID, Targets: targets, Requests: o.Requests, Analyses: a, Project: o.Project, Mix: mix,
			StartTargets: startIdx, Client: client, Record: rec.record, Now: o.Factory.Now, TailWait: o.WorkerWait, Concurrency: o.Concurrency}
		if o.WorkerWait == 0 {
			osp.TailFraction = -1
		}
		hdr.Mix = osp.EffectiveMix()
	case "jobs":
		if jobs, err = setupJobs(ctx, o, runID, targets, client, hdrs, rec.record, &hdr, notice); err != nil {
			return err
		}
	case "http":
		hp := &profile.HTTP{Run: runID, Targets: targets, Method: o.Method, Header: hdrs, Body: o.Body, Requests: int64(o.Requests), Now: o.Factory.Now}
		if rec.w != nil {
			hp.Record = rec.record
		}
		src = hp.Source()
		// Status-only requests to http:// targets: the event loops, the way wrk sends them.
		eventLoop = hp.EventLoopOK()
	}
	rec.record(&history.Record{Kind: history.KindHeader, Header: &hdr})
	rep.StartedAt = hdr.Started

	if osp != nil {
		fmt.Fprintf(errOut, "run %s: creating the project and %d analyses\n", runID, osp.Analyses)
		if err := osp.Setup(ctx); err != nil {
			flushHistory(rec, files[o.History], o.Factory.Now(), true, "setup failed", false)
			return fmt.Errorf("run %s: %v", runID, err)
		}
		rep.Project = osp.Project
		src = osp.Source()
	}
	postCtx, cancelPost := context.WithTimeout(context.WithoutCancel(ctx), postTimeout+o.SettleTimeout+o.JobTimeout)
	defer cancelPost()
	if jobs != nil {
		src = jobs.Source(ctx)
	}

	bar := newBar(o, errOut)
	aopts := attack.Options{Concurrency: o.Concurrency, Rate: o.Rate, Duration: o.Duration, MaxErrorRate: o.MaxErrorRate, Now: o.Factory.Now,
		EventLoop: eventLoop}
	if bar != nil {
		aopts.OnDone = func() { _ = bar.Add(1) }
	}
	fmt.Fprintf(errOut, "run %s: %s profile, %s at concurrency %d against %d target(s)\n", runID, o.Profile, describeBound(o), o.Concurrency, len(targets))
	st := attack.Run(ctx, conns, src, aopts)
	if bar != nil {
		_ = bar.Finish()
		fmt.Fprintln(errOut)
	}
	partial, reason := false, ""
	switch st.Stopped {
	case attack.StopInterrupted:
		partial, reason = true, "interrupted"
		fmt.Fprintln(errOut, "interrupted: writing what this run has (history, report); the verdict is partial")
	case attack.StopErrorRate:
		partial, reason = true, fmt.Sprintf("stopped early: the error rate passed --max-error-rate %v", o.MaxErrorRate)
		fmt.Fprintln(errOut, reason)
	}
	if osp != nil {
		for _, w := range osp.TailReleases() {
			rep.WorkerWaits = append(rep.WorkerWaits, report.WorkerWait{AtS: w.At.Seconds(), WaitedS: w.Waited.Seconds(), Worker: w.Worker, JobsRan: w.JobsRan})
			if !w.Worker {
				notice("a held-back part of the load waited --worker-wait %s and saw no worker take a job: uploads may not have overlapped an extraction", o.WorkerWait)
			}
		}
	}
	rep.Counts = st.Counts()
	h := st.Histogram()
	rep.Latency = attack.Summarize(h)
	rep.Engine = st.Engine
	rep.Histogram = report.Buckets(h, 8)
	rep.Timeline = st.Timeline()
	rep.PeakInFlight = st.PeakInFlight()
	if el := st.Ended.Sub(st.Began).Seconds(); el > 0 {
		rep.Throughput = float64(rep.Counts.Total) / el
	}

	settled := true
	var state *snapshot.State
	reader, fingerprint := o.stateReader()
	if jobs != nil {
		if !partial {
			fmt.Fprintln(errOut, "following the jobs until they end")
		}
		jobs.Wait()
		if err := jobsFollowed(errOut, jobs, hdrs); err != nil {
			flushHistory(rec, files[o.History], o.Factory.Now(), true, "the job API refused the token", false)
			return err
		}
	}
	if osp != nil {
		if !partial && o.SettleTimeout > 0 {
			fmt.Fprintf(errOut, "waiting up to %s for the analyses' jobs to leave \"queued\" and the files to settle\n", o.SettleTimeout)
			var fp func(context.Context) (string, error)
			if fingerprint != nil {
				dirs := detect.Dirs(&history.History{Header: hdr, Records: rec.records()})
				fp = func(ctx context.Context) (string, error) { return fingerprint(ctx, dirs) }
			}
			sr := osp.Settle(postCtx, o.SettleTimeout, time.Second, fp)
			settled = sr.Quiet
			rep.SettleWait = sr.Waited.Seconds()
			if sr.Queued > 0 {
				notice("%d of %d jobs were still queued after --settle-timeout %s: their extractions had not run or failed, and are not judged", sr.Queued, sr.Jobs, o.SettleTimeout)
			}
			if !sr.Quiet {
				notice("the files were still changing after --settle-timeout %s", o.SettleTimeout)
			}
		} else {
			settled = !partial
		}
		osp.Readback(postCtx)
		if reader != nil {
			dirs := detect.Dirs(&history.History{Header: hdr, Records: rec.records()})
			state, err = reader.Read(postCtx, dirs)
			if err != nil {
				flushHistory(rec, files[o.History], o.Factory.Now(), partial, reason, settled)
				return fmt.Errorf("reading the state: %v", err)
			}
		} else {
			notice("no --state-dir or --state-pod: the files were not judged, only the records")
		}
	}
	fin := o.Factory.Now().UTC()
	footer := history.Footer{Finished: fin, Partial: partial, Reason: reason, Settled: settled}
	rec.record(&history.Record{Kind: history.KindFooter, Footer: &footer})
	if rec.w != nil {
		if err := rec.w.Flush(); err != nil {
			return fmt.Errorf("writing the history %s: %v", o.History, err)
		}
	}
	hist := &history.History{Header: hdr, Footer: &footer, Records: rec.records()}
	j := detect.Judge(hist, state, detect.Options{Ignore: o.Ignore, MinAcknowledged: o.MinAcknowledged, MinContended: o.MinContended, Grace: o.Grace})
	if o.Profile == "http" {
		j = judgeHTTP(rep.Counts, partial, o.MinAcknowledged)
	}
	if failed := rep.Counts.Errors + rep.Counts.Timeouts; !j.Conclusive && failed > 0 && st.FirstError() != "" {
		j.Reasons = append(j.Reasons, fmt.Sprintf("%d requests got no answer (transport errors or timeouts); the first: %s", failed, redact.Text(st.FirstError())))
	}
	rep.ApplyJudgement(j)
	rep.StopReason = reason
	rep.Notices = notices
	rep.FinishedAt = fin
	rep.Elapsed = fin.Sub(rep.StartedAt).Seconds()
	if o.Deployment != "" {
		if w, err := workload(postCtx, o.Factory, o.Deployment); err != nil {
			notice("reading Deployment %s: %v", o.Deployment, err)
		} else {
			rep.Workload = w
		}
	}
	rep.MaxReplicasValidated = replicasValidated(rep)
	return finish(o, rep, files)
}

func describeBound(o *Options) string {
	var parts []string
	if o.Requests > 0 {
		parts = append(parts, fmt.Sprintf("%d requests", o.Requests))
	}
	if o.Duration > 0 {
		parts = append(parts, "for at most "+o.Duration.String())
	}
	if o.Rate > 0 {
		parts = append(parts, fmt.Sprintf("at %v/s", o.Rate))
	}
	return strings.Join(parts, " ")
}

// judgeHTTP is the http profile's verdict: status codes only.
func judgeHTTP(c attack.Counts, partial bool, minAck float64) detect.Judgement {
	j := detect.Judgement{Verdict: detect.Clean, Conclusive: true, Partial: partial, Settled: true, Load: int(c.Total), Acknowledged: int(c.Acknowledged),
		Outcomes: map[string]int{history.Acknowledged: int(c.Acknowledged), history.Rejected: int(c.Rejected), history.Ambiguous: int(c.Ambiguous)},
		Counts:   map[string]int{}, Findings: []detect.Finding{}}
	if c.Total > 0 {
		j.AckFraction = float64(c.Acknowledged) / float64(c.Total)
	}
	if partial {
		j.Reasons = append(j.Reasons, "the run was cut short (partial)")
	}
	if c.Total == 0 || j.AckFraction < minAck {
		j.Reasons = append(j.Reasons, fmt.Sprintf("only %.0f%% of requests were answered 2xx (at least %.0f%% needed)", 100*j.AckFraction, 100*minAck))
	}
	if len(j.Reasons) > 0 {
		j.Verdict, j.Conclusive = detect.Inconclusive, false
	}
	return j
}

// replicasValidated is how many replicas a clean, conclusive run validated: the Deployment's
// ready replicas when known, else the distinct sandbox replicas that answered, else 1 (a real
// server behind one URL may be one replica or many).
func replicasValidated(r *report.Report) int {
	if r.Verdict != detect.Clean || !r.Conclusive {
		return 0
	}
	if r.Workload != nil {
		return int(r.Workload.Replicas)
	}
	seen := map[int]bool{}
	for _, t := range r.Targets {
		if t.Replica != nil {
			seen[*t.Replica] = true
		}
	}
	return max(len(seen), 1)
}

func (o *Options) stateReader() (snapshot.Reader, func(context.Context, []string) (string, error)) {
	switch {
	case o.StateDir != "":
		l := snapshot.Local{Root: o.StateDir}
		return l, l.Fingerprint
	case o.StatePod != "":
		kc, err := o.Factory.Kube()
		if err != nil {
			return errReader{err}, nil
		}
		p := snapshot.Pod{REST: kc.REST, Clientset: kc.Clientset, Namespace: kc.Namespace, Name: o.StatePod, Container: o.StateContainer, Mount: o.StateMount}
		return p, p.Fingerprint
	}
	return nil, nil
}

type errReader struct{ err error }

func (e errReader) Read(context.Context, []string) (*snapshot.State, error) { return nil, e.err }

func flushHistory(rec *recorder, fh *os.File, now time.Time, partial bool, reason string, settled bool) {
	rec.record(&history.Record{Kind: history.KindFooter, Footer: &history.Footer{Finished: now.UTC(), Partial: partial, Reason: reason, Settled: settled}})
	if rec.w != nil {
		_ = rec.w.Flush()
	}
}

func closeAll(files map[string]*os.File) {
	for p, f := range files {
		_ = f.Close()
		delete(files, p)
	}
}

func parseHeaders(hs []string) (http.Header, error) {
	out := http.Header{}
	for _, h := range hs {
		k, v, ok := strings.Cut(h, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case !ok || k == "":
			return nil, cmdutil.Usage("--header %q: use 'Name: value'", h)
		case !httpguts.ValidHeaderFieldName(k):
			return nil, cmdutil.Usage("--header %q: %q is not a valid header name (letters, digits and !#$%%&'*+-.^_`|~)", h, k)
		case !httpguts.ValidHeaderFieldValue(v):
			return nil, cmdutil.Usage("--header %q: the value holds a control character (a line break?)", h)
		}
		out.Add(k, v)
	}
	return out, nil
}

func newBar(o *Options, w io.Writer) *progressbar.ProgressBar {
	if !o.IO.IsStderrTTY() {
		return nil
	}
	max := int64(o.Requests)
	if max == 0 {
		max = -1
	}
	return progressbar.NewOptions64(max, progressbar.OptionSetWriter(w), progressbar.OptionShowCount(), progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("req"), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionSetDescription("requests"),
		progressbar.OptionClearOnFinish())
}
