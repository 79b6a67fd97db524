package profile

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
)

// Job states (elb-openapi).
var (
	ActiveStates   = map[string]bool{"dispatching": true, "submitting": true, "running": true}
	TerminalStates = map[string]bool{"completed": true, "failed": true, "cancelled": true}
)

// Jobs is the jobs profile: a burst of POST /v1/jobs, each acknowledged job then followed by
// polling its status until it ends.
type Jobs struct {
	Run      string
	Targets  []Target
	Requests int
	Client   Doer
	Record   Recorder
	Now      func() time.Time
	// Poll is the status polling interval. The default is 50ms.
	Poll time.Duration
	// Timeout bounds how long one job is followed. The default is 2 minutes.
	Timeout time.Duration
	// Header is added to every request (e.g. X-ELB-API-Token).
	Header http.Header

	seq       atomic.Int64
	next      atomic.Int64
	followers sync.WaitGroup
}

func (p *Jobs) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// Source returns the burst of submissions.
func (p *Jobs) Source(ctx context.Context) attack.Source {
	return attack.SourceFunc(func(context.Context) (attack.Op, bool) {
		i := p.next.Add(1) - 1
		if i >= int64(p.Requests) {
			return nil, false
		}
		seq := p.seq.Add(1)
		t := p.Targets[int(i)%len(p.Targets)].URL
		return &jobOp{p: p, ctx: ctx, target: t, rec: &history.Record{Kind: history.KindRequest, Seq: seq, Op: history.OpSubmitJob, Target: t.String(), Method: http.MethodPost, Path: "/v1/jobs", Nonce: Nonce(p.Run, seq)}}, true
	})
}

// Wait blocks until every followed job has ended or timed out.
func (p *Jobs) Wait() { p.followers.Wait() }

type jobOp struct {
	p      *Jobs
	ctx    context.Context
	target *url.URL
	rec    *history.Record
}

func (o *jobOp) Request(ctx context.Context) (*http.Request, error) {
	body, _ := json.Marshal(map[string]any{"program": "blastn", "db": "osctl-stress", "queries": ">" + o.rec.Nonce + "\nACGTACGTACGT\n", "idempotency_key": o.rec.Nonce})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, join(o.target, "/v1/jobs"), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range o.p.Header {
		req.Header[k] = v
	}
	return req, nil
}

func (o *jobOp) Done(r *attack.Result, resp *http.Response) attack.Outcome {
	var ans struct {
		JobID     string `json:"job_id"`
		Status    string `json:"status"`
		StatusURL string `json:"status_url"`
	}
	if resp != nil {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		_ = json.Unmarshal(b, &ans)
	}
	r.End = o.p.now()
	rec := o.rec
	rec.Start, rec.End, rec.Status, rec.Returned, rec.Job = r.Start, r.End, r.Status, ans.JobID, ans.JobID
	if r.Err != nil {
		rec.Error, rec.Timeout = r.Err.Error(), r.Timeout
	}
	out := attack.Classify(r)
	if out == attack.Acknowledged && ans.JobID == "" {
		out = attack.Ambiguous
		rec.Error = "acknowledged without a job_id"
	}
	rec.Outcome = out.String()
	o.p.Record(rec)
	if out == attack.Acknowledged {
		statusURL := ans.StatusURL
		if statusURL == "" {
			statusURL = "/v1/jobs/" + url.PathEscape(ans.JobID) + "/status"
		}
		ref, err := url.Parse(statusURL)
		if err == nil {
			o.p.followers.Add(1)
			go func() {
				defer o.p.followers.Done()
				o.p.follow(o.ctx, ans.JobID, o.target.ResolveReference(ref).String())
			}()
		}
	}
	return out
}

// follow polls one job's status on the replica that took it until the job ends, the timeout
// passes, or ctx ends, and records one job line with the runs of states its polls saw.
func (p *Jobs) follow(ctx context.Context, id, statusURL string) {
	poll := p.Poll
	if poll <= 0 {
		poll = 50 * time.Millisecond
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	rec := &history.Record{Kind: history.KindJob, Job: id, Path: statusURL}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tick := time.NewTicker(poll)
	defer tick.Stop()
loop:
	for {
		s, e, state := p.pollOnce(ctx, statusURL)
		if ctx.Err() != nil {
			break // a poll cut by the timeout saw nothing
		}
		addRun(rec, state, s, e)
		if TerminalStates[state] {
			rec.Done = true
			break
		}
		select {
		case <-ctx.Done():
			break loop
		case <-tick.C:
		}
	}
	if !rec.Done {
		rec.Error = "not ended within " + timeout.String()
	}
	p.Record(rec)
}

func (p *Jobs) pollOnce(ctx context.Context, statusURL string) (time.Time, time.Time, string) {
	start := p.now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, statusURL, nil)
	if err != nil {
		return start, p.now(), "error"
	}
	for k, v := range p.Header {
		req.Header[k] = v
	}
	resp, err := p.Client.Do(req)
	if err != nil {
		return start, p.now(), "error"
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	end := p.now()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return start, end, "missing"
	case resp.StatusCode != http.StatusOK:
		return start, end, fmt.Sprintf("http-%d", resp.StatusCode)
	}
	var ans struct {
		Status string `json:"status"`
	}
	if json.Unmarshal(b, &ans) != nil || ans.Status == "" {
		return start, end, "unreadable"
	}
	return start, end, strings.ToLower(ans.Status)
}

func addRun(rec *history.Record, state string, s, e time.Time) {
	if n := len(rec.Runs); n > 0 && rec.Runs[n-1].State == state {
		r := &rec.Runs[n-1]
		r.Polls++
		r.LastStart, r.LastEnd = s, e
		return
	}
	rec.Runs = append(rec.Runs, history.StateRun{State: state, Polls: 1, FirstStart: s, FirstEnd: e, LastStart: s, LastEnd: e})
}
