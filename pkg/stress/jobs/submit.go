package jobs

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/osctl/osctl/pkg/stress/profile"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
)

// goneAfter is how many 404s in a row end following a job that was seen: it is gone.
const goneAfter = 3

// unansweredWait is how long after a submit that got no answer was last sent the job its
// idempotency key names is looked for: the service goes on with a submit after the client gave
// up, and makes the job seconds later.
const unansweredWait = 30 * time.Second

// Submitter is the jobs profile's load: a burst of POST /v1/jobs, each acknowledged job then followed by
// polling its status on the replica that accepted it until it ends (docs/migration/jobs.md).
type Submitter struct {
	Run      string
	Targets  []profile.Target
	Requests int
	Client   profile.Doer
	Record   profile.Recorder
	Now      func() time.Time
	// Body is the submit body template ({{nonce}} and {{seq}} are replaced per request); empty
	// is profile.DefaultJobBody.
	Body string
	// Poll is the status polling interval. The default is profile.DefaultJobPoll.
	Poll time.Duration
	// Timeout bounds how long one job is followed. The default is profile.DefaultJobTimeout.
	Timeout time.Duration
	// Header is added to every request (X-ELB-API-Token).
	Header http.Header
	// Shard is this process's part of the load (the zero Shard: all of it); Sending receives each
	// submit's record as it is about to be sent (see OpenStudio).
	Shard   profile.Shard
	Sending profile.Recorder
	// Pool, when set, holds the targets while they change (osctl stress --target-pods): the
	// submissions go to its live targets.
	Pool *profile.Pool

	next      atomic.Int64
	followers sync.WaitGroup
	ctx       context.Context // the run's, cancelled when the token is refused
	cancel    context.CancelFunc
	refusedMu sync.Mutex
	refused   *profile.AuthError
	stats     jobStats
	madeMu    sync.Mutex
	made      map[string]map[string]bool // target -> the jobs the run made or may have made there
}

func (p *Submitter) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p *Submitter) poll() time.Duration {
	if p.Poll > 0 {
		return p.Poll
	}
	return profile.DefaultJobPoll
}

func (p *Submitter) timeout() time.Duration {
	if p.Timeout > 0 {
		return p.Timeout
	}
	return profile.DefaultJobTimeout
}

// Source returns the burst of submissions. It ends early once the token is refused.
func (p *Submitter) Source(ctx context.Context) attack.Source {
	p.ctx, p.cancel = context.WithCancel(ctx)
	return attack.SourceFunc(func(context.Context) (attack.Op, bool) {
		if p.Refused() != nil {
			return nil, false
		}
		j := p.next.Add(1) - 1
		if j >= p.Shard.Len(int64(p.Requests)) {
			return nil, false
		}
		i := p.Shard.Global(j)
		seq := i + 1
		t := p.Targets[int(i)%len(p.Targets)].URL
		if p.Pool != nil {
			if u := p.Pool.Pick(i, false); u != nil {
				t = u // a job is followed on the target that took it
			}
		}
		nonce := profile.Nonce(p.Run, seq)
		body, key, source, keyJob := p.renderSubmit(seq, nonce)
		rec := &history.Record{Kind: history.KindRequest, Seq: seq, Op: history.OpSubmitJob,
			Target: t.Redacted(), Method: http.MethodPost, Path: "/v1/jobs", Nonce: nonce, JobFollow: history.JobFollow{KeyJob: keyJob}}
		if p.Body != "" {
			rec.Key, rec.KeySource = key, source // cleanup proves the job is the run's by them
		}
		return &jobOp{p: p, target: t, body: body, key: key, rec: rec}, true
	})
}

// Wait blocks until every followed job has ended, disappeared or timed out.
func (p *Submitter) Wait() {
	p.followers.Wait()
	if p.cancel != nil {
		p.cancel()
	}
}

// Refused returns the first refusal of the token, nil when there was none.
func (p *Submitter) Refused() *profile.AuthError {
	p.refusedMu.Lock()
	defer p.refusedMu.Unlock()
	return p.refused
}

func (p *Submitter) refuse(e *profile.AuthError) {
	p.refusedMu.Lock()
	if p.refused == nil {
		p.refused = e
	}
	p.refusedMu.Unlock()
	p.cancel()
}

func (p *Submitter) newRequest(ctx context.Context, method, u string, body []byte) (*http.Request, error) {
	return profile.JSONRequest(ctx, method, u, p.Header, body)
}

type jobOp struct {
	p      *Submitter
	target *url.URL
	body   []byte
	key    string // the body's idempotency key ("" none: no replay)
	rec    *history.Record
}

func (o *jobOp) Request(ctx context.Context) (*http.Request, error) {
	if o.p.Sending != nil {
		o.rec.Start = o.p.now()
		o.p.Sending(o.rec)
	}
	return o.p.newRequest(ctx, http.MethodPost, profile.JoinPath(o.target, "/v1/jobs"), o.body)
}

// submitAnswer is what a submit's 202 says.
type submitAnswer struct {
	JobID     string `json:"job_id"`
	Status    string `json:"status"`
	StatusURL string `json:"status_url"`
	Message   string `json:"message"`
	Detail    any    `json:"detail"`
}

// existingJobMessage is how elb-openapi answers a replay of a key whose job it holds (main.py
// submit_job); a fresh submit's answer says to poll the status instead.
const existingJobMessage = "Existing job returned for idempotency_key."

func readAnswer(resp *http.Response) submitAnswer {
	var ans submitAnswer
	if resp != nil {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		_ = json.Unmarshal(b, &ans)
	}
	return ans
}

func (o *jobOp) Done(r *attack.Result, resp *http.Response) attack.Outcome {
	p, rec := o.p, o.rec
	ans := readAnswer(resp)
	r.End = p.now()
	rec.Start, rec.End, rec.Status = r.Start, r.End, r.Status
	if r.Intended.Before(r.Start) {
		rec.Intended = r.Intended
	}
	if r.Err != nil {
		rec.Error, rec.Timeout = r.Err.Error(), r.Timeout
	}
	if resp != nil && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
		p.refuse(&profile.AuthError{Method: http.MethodPost, URL: rec.Target + "/v1/jobs", Status: resp.StatusCode, Detail: profile.DetailText(ans.Detail)})
	}
	out := attack.Classify(r)
	if out == attack.Acknowledged && ans.JobID == "" {
		out = attack.Ambiguous
		rec.Error = "acknowledged without a job_id"
	}
	seenAt := [2]time.Time{r.Start, r.End}
	if out == attack.Ambiguous && r.Err != nil && r.Sent && o.key != "" && p.ctx.Err() == nil {
		// The service derives the job id from the key: the same key to the same replica names
		// the job the lost answer would have named (or makes it, if the first never arrived).
		rp, rans := o.replay()
		rec.Replay = rp
		if rp.Outcome == history.Acknowledged {
			out, ans, seenAt = attack.Acknowledged, rans, [2]time.Time{rp.Start, rp.End}
			p.stats.replayed.Add(1)
		}
	}
	rec.Outcome = out.String()
	rec.Returned, rec.Job = ans.JobID, ans.JobID
	switch out {
	case attack.Acknowledged:
		p.noteJob(rec.Target, ans.JobID)
	case attack.Ambiguous:
		p.noteJob(rec.Target, rec.KeyJob)
	}
	p.Record(rec)
	switch {
	case out == attack.Acknowledged:
		first := history.StateRun{State: strings.ToLower(ans.Status), Polls: 1, FirstStart: seenAt[0], FirstEnd: seenAt[1], LastStart: seenAt[0], LastEnd: seenAt[1]}
		if first.State == "" {
			first.State = "unreadable"
		}
		statusURL := resolveStatusURL(o.target, ans.StatusURL, ans.JobID)
		p.followers.Add(1)
		go func() {
			defer p.followers.Done()
			p.follow(p.ctx, rec.Target, ans.JobID, statusURL, &first, time.Time{})
		}()
	case out == attack.Ambiguous && rec.KeyJob != "" && p.ctx.Err() == nil:
		// No answer named the job, but the key does: the service may go on with the submit
		// and make the job after the client gave up. Follow it by that id.
		sent := rec.Start
		if rec.Replay != nil {
			sent = rec.Replay.Start
		}
		statusURL := resolveStatusURL(o.target, "", rec.KeyJob)
		p.followers.Add(1)
		go func() {
			defer p.followers.Done()
			p.follow(p.ctx, rec.Target, rec.KeyJob, statusURL, nil, sent.Add(unansweredWait))
		}()
	}
	return out
}

// replay sends the submit once more, with the same body (so the same idempotency key) to the
// same replica: replays are looked up in that replica's own memory.
func (o *jobOp) replay() (*history.Replay, submitAnswer) {
	p := o.p
	rp := &history.Replay{Start: p.now()}
	a, err := profile.Exchange(p.ctx, p.Client, http.MethodPost, profile.JoinPath(o.target, "/v1/jobs"), p.Header, o.body, 1<<20)
	var ans submitAnswer
	if err == nil {
		_ = json.Unmarshal(a.Body, &ans)
		rp.Status = a.Status
	}
	rp.End = p.now()
	switch {
	case err != nil:
		rp.Error, rp.Outcome = err.Error(), history.Ambiguous
	case rp.Status >= 200 && rp.Status < 300 && ans.JobID != "":
		rp.Outcome = history.Acknowledged
		rp.Existing = ans.Message == existingJobMessage
	case rp.Status >= 500 && rp.Status != http.StatusServiceUnavailable:
		rp.Outcome = history.Ambiguous
	default:
		rp.Outcome = history.Rejected
	}
	return rp, ans
}

// resolveStatusURL is where job id's status is read: the path of the status_url the service
// answered (its own absolute path, /v1/jobs/<id>/status) under the accepting target's base URL
// and path prefix, so that a service behind a path-routing proxy is polled through the proxy.
func resolveStatusURL(target *url.URL, statusURL, id string) string {
	path, query := "/v1/jobs/"+url.PathEscape(id)+"/status", ""
	if u, err := url.Parse(statusURL); err == nil && statusURL != "" && u.Path != "" {
		path, query = u.EscapedPath(), u.RawQuery
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
	}
	if prefix := strings.TrimRight(target.EscapedPath(), "/"); prefix != "" && !strings.HasPrefix(path, prefix+"/") {
		path = prefix + path
	}
	b := *target
	b.Path, b.RawPath, b.RawQuery, b.Fragment = "", "", "", ""
	out := strings.TrimRight(b.String(), "/") + path
	if query != "" {
		out += "?" + query
	}
	return out
}
