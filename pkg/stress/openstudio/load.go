package openstudio

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/osctl/osctl/pkg/stress/profile"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
)

// Load is the openstudio profile: one project, Analyses analyses, and Requests load
// requests spread round-robin over the analyses and the targets.
type Load struct {
	Run      string
	Targets  []profile.Target
	Requests int
	Analyses int
	Project  string // an existing project to use; empty creates one
	Mix      profile.Mix
	// StartTargets are the indexes of Targets that may receive start actions (sandboxes, or any
	// with --allow-start). Empty leaves start out of the mix.
	StartTargets []int
	Client       profile.Doer
	Record       profile.Recorder
	Now          func() time.Time
	// SetupConcurrency bounds the setup and read-back requests in flight. The default is 16.
	SetupConcurrency int
	// TailFraction is the part of the load held back until the target's workers are seen
	// extracting (see overlap.go). The default is profile.DefaultTailFraction; a negative value holds
	// nothing back. TailParts and TailWait default to profile.DefaultTailParts and profile.DefaultTailWait.
	TailFraction float64
	TailParts    int
	TailWait     time.Duration
	// Concurrency is the load's concurrency: at most Requests-Concurrency requests are held back.
	Concurrency int
	// Shard is this process's part of the load (the zero Shard: all of it); Requests and
	// Concurrency stay the whole load's and this process's. A worker that did not run the setup
	// starts from Restore.
	Shard profile.Shard
	// Pool, when set, holds the targets while they change during the run (osctl stress
	// --target-pods): the load and the read-backs go to its live targets, Targets and
	// StartTargets only when it has none.
	Pool *profile.Pool
	// Sending, when set, receives each load request's record as the request is about to be sent
	// (what it sends; not yet what it got), so that a request in flight when its sender dies can
	// be judged as ambiguous (osctl stress --workers).
	Sending profile.Recorder

	st osRun // the run's state: what the setup and the load have made so far
}

// SetupState returns what Setup created.
func (p *Load) SetupState() profile.SetupState { return p.st.snapshot(p.Project) }

// Restore starts the profile from another process's setup instead of running Setup.
func (p *Load) Restore(s profile.SetupState) {
	p.Project = s.Project
	p.st.restore(s)
}

func (p *Load) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// Setup creates the project (unless one is given) and the analyses, one POST each.
func (p *Load) Setup(ctx context.Context) error {
	p.st.init()
	if p.Project == "" {
		seq := p.st.seq.Add(1)
		nonce := profile.Nonce(p.Run, seq)
		// Only fields the Project model has (it is not dynamic: an unknown key answers 500); the
		// nonce goes into the name.
		body, _ := json.Marshal(map[string]any{"project": map[string]any{"name": nonce, "display_name": "osctl stress " + p.Run}})
		rec := &history.Record{Seq: seq, Op: history.OpCreateProject, Method: http.MethodPost, Path: "/projects.json", Setup: true, Nonce: nonce}
		p.api().Call(ctx, 0, rec, "application/json", body)
		p.Record(rec)
		if rec.Outcome != history.Acknowledged || rec.Returned == "" {
			return fmt.Errorf("creating the project failed (%s): pass {Project} ID of an existing one, or check the target", rec.Describe())
		}
		p.Project = rec.Returned
	}
	ids := make([]string, p.Analyses)
	ok := make([]bool, p.Analyses)
	var firstErr atomic.Value
	p.api().Parallel(ctx, p.Analyses, func(i int) {
		id := profile.AnalysisID(p.Run, i)
		seq := p.st.seq.Add(1)
		nonce := profile.Nonce(p.Run, seq)
		body, _ := json.Marshal(map[string]any{"analysis": map[string]any{
			"uuid": id, "name": nonce, "display_name": "osctl stress " + p.Run,
			"problem": map[string]any{"workflow": []any{}, "algorithm": map[string]any{}, "analysis_type": "batch_run"},
		}})
		rec := &history.Record{Seq: seq, Op: history.OpCreateAnalysis, Method: http.MethodPost, Path: "/projects/" + url.PathEscape(p.Project) + "/analyses.json",
			Setup: true, Nonce: nonce, Upload: history.Upload{Project: p.Project, Analysis: id}, ID: id}
		p.api().Call(ctx, i, rec, "application/json", body)
		p.Record(rec)
		ids[i] = rec.CreatedID() // the server may choose its own id
		ok[i] = rec.Outcome == history.Acknowledged
		if !ok[i] {
			firstErr.CompareAndSwap(nil, rec.Describe())
		}
	})
	for i := range ids {
		if ok[i] {
			p.st.analyses = append(p.st.analyses, ids[i])
		}
	}
	if len(p.st.analyses) == 0 {
		e, _ := firstErr.Load().(string)
		return fmt.Errorf("no analysis could be created (%s)", e)
	}
	p.seed(ctx)
	return nil
}

// seed uploads each analysis's first zip and creates its first data point, as part of the setup,
// as a real client does before it starts an analysis or posts results: the load can then send
// starts and result files from its first request on. An analysis whose seed failed gets them in
// the load, once an upload or data point of it is acknowledged.
func (p *Load) seed(ctx context.Context) {
	p.api().Parallel(ctx, len(p.st.analyses), func(i int) {
		a := p.st.analyses[i]
		for _, op := range []string{history.OpUpload, history.OpCreateDataPoint} {
			seq := p.st.seq.Add(1)
			rec := &history.Record{Seq: seq, Op: op, Method: http.MethodPost, Setup: true, Upload: history.Upload{Analysis: a, Project: p.Project}, Nonce: profile.Nonce(p.Run, seq)}
			body, ctype, err := p.body(rec)
			if err != nil {
				rec.Kind, rec.Error, rec.Outcome = history.KindRequest, err.Error(), history.Rejected
			} else {
				p.api().Call(ctx, i, rec, ctype, body)
			}
			p.st.answered(rec, rec.Outcome == history.Acknowledged)
			p.Record(rec)
		}
	})
}

// Source returns the load: the shard's part of Requests operations, made as they are sent. The
// last part of them waits for the target's workers (overlap.go).
func (p *Load) Source() attack.Source {
	p.st.tail = p.newTail()
	n, base := p.Shard.Len(int64(p.Requests)), p.st.seq.Load()
	var once sync.Once
	return attack.SourceFunc(func(ctx context.Context) (attack.Op, bool) {
		// Operations waiting for an acknowledgement wake up when the run ends.
		once.Do(func() { context.AfterFunc(ctx, p.st.wake) })
		j := p.st.next.Add(1) - 1
		if j >= n {
			return nil, false
		}
		p.st.tail.gate(ctx, j)
		if ctx.Err() != nil {
			return nil, false
		}
		o := p.op(ctx, p.Shard.Global(j), base)
		if o == nil {
			return nil, false
		}
		return o, true
	})
}

// EffectiveMix is the mix the load is drawn from, by operation: start weighs 0 when no target may
// receive it.
func (p *Load) EffectiveMix() map[string]int {
	m := p.effectiveMix()
	return map[string]int{history.OpUpload: m.Upload, history.OpStart: m.Start, history.OpCreateDataPoint: m.DataPoint, history.OpUploadFile: m.UploadFile}
}

func (p *Load) effectiveMix() profile.Mix {
	m := p.Mix
	if len(p.StartTargets) == 0 {
		m.Start = 0
	}
	return m
}

func (p *Load) pick(i int64) string {
	if i < int64(len(p.st.analyses)) {
		return history.OpUpload // each analysis's first load request uploads its zip
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d", p.Run, i)
	m := p.effectiveMix()
	total := m.Upload + m.Start + m.DataPoint + m.UploadFile
	if total == 0 {
		return history.OpUpload
	}
	x := int(h.Sum64() % uint64(total))
	switch {
	case x < m.Upload:
		return history.OpUpload
	case x < m.Upload+m.Start:
		return history.OpStart
	case x < m.Upload+m.Start+m.DataPoint:
		return history.OpCreateDataPoint
	default:
		return history.OpUploadFile
	}
}

// neverStarted reports whether the k-th analysis is one the load never starts: with two or more
// analyses, the last quarter of them (at least one). Their data points are never simulated, so
// their result files must outlive the run and stay judged: the real server's simulation worker
// deletes the result files of every data point it runs (docs/sandbox.md). Their uploads still
// race; a start drawn for one of them is sent as an upload.
func (p *Load) neverStarted(k int) bool {
	n := len(p.st.analyses)
	return n >= 2 && k >= n-(n+3)/4
}

type osOp struct {
	p      *Load
	rec    *history.Record
	target *url.URL
	ctype  string
	body   []byte
}

// op makes the i-th operation. A start needs an acknowledged upload of its analysis (a real client
// starts an analysis only once its zip was uploaded: a start before that gets a job that can never
// run), and a result file an acknowledged data point to attach to. While a request that may give
// it is in flight the operation waits here, outside the attacker's count of requests in flight;
// when none is, it becomes that request instead. It returns nil when ctx ends while it waits. i
// is the request's index in the whole load; its seq follows the setup's (base).
func (p *Load) op(ctx context.Context, i, base int64) *osOp {
	k := int(i) % len(p.st.analyses)
	a := p.st.analyses[k]
	seq := base + 1 + i
	kind := p.pick(i)
	if kind == history.OpStart && p.neverStarted(k) {
		kind = history.OpUpload
	}
	kind, ok := p.st.admit(ctx, a, kind)
	if !ok {
		return nil // the load stopped while this operation waited
	}
	t := p.target(i, kind == history.OpStart)
	o := &osOp{p: p, target: t, rec: &history.Record{Kind: history.KindRequest, Seq: seq, Op: kind, Target: t.Redacted(), Method: http.MethodPost, Upload: history.Upload{Analysis: a, Project: p.Project}, Nonce: profile.Nonce(p.Run, seq)}}
	return o
}

// target is the i-th load request's target: the Pool's when it has one, else round-robin over
// Targets (StartTargets for a start).
func (p *Load) target(i int64, start bool) *url.URL {
	if p.Pool != nil {
		if u := p.Pool.Pick(i, start); u != nil {
			return u
		}
	}
	if start {
		return p.Targets[p.StartTargets[int(i)%len(p.StartTargets)]].URL
	}
	return p.Targets[int(i)%len(p.Targets)].URL
}

// body makes a request's body and fills the record with what it sends (path, file, hashes,
// manifest). Load requests make it in Request, so that only requests being sent hold one.
func (p *Load) body(rec *history.Record) ([]byte, string, error) {
	switch rec.Op {
	case history.OpUpload:
		z, man, err := profile.BuildZip(rec.Nonce)
		if err != nil {
			return nil, "", err
		}
		rec.File, rec.Hash, rec.Size, rec.Manifest, rec.Generator = profile.ZipName(p.Run), profile.Sum(z), int64(len(z)), man, profile.ZipGenerator
		rec.Path = "/analyses/" + url.PathEscape(rec.Analysis) + "/upload.json"
		body, ctype := profile.Multipart(nil, "file", rec.File, "application/zip", z)
		return body, ctype, nil
	case history.OpStart:
		rec.Path = "/analyses/" + url.PathEscape(rec.Analysis) + "/action.json"
		body, _ := json.Marshal(map[string]any{"analysis_action": "start", "without_delay": false, "analysis_type": "batch_run"})
		return body, "application/json", nil
	case history.OpCreateDataPoint:
		rec.ID = profile.DataPointID(p.Run, int(rec.Seq))
		rec.DataPoint = rec.ID
		rec.Path = "/analyses/" + url.PathEscape(rec.Analysis) + "/data_points.json"
		// Only DataPoint fields (the model is not dynamic); the nonce goes into the name.
		body, _ := json.Marshal(map[string]any{"data_point": map[string]any{"uuid": rec.ID, "name": rec.Nonce, "description": "osctl stress " + p.Run}})
		return body, "application/json", nil
	case history.OpUploadFile:
		rec.DataPoint = p.st.dataPoint(rec.Analysis, rec.Seq)
		content := resultBody(rec.Nonce, rec.Seq)
		rec.File, rec.Hash, rec.Size = profile.ResultName(p.Run, rec.Seq), profile.Sum(content), int64(len(content))
		rec.Path = "/data_points/" + url.PathEscape(rec.DataPoint) + "/upload_file.json"
		body, ctype := profile.Multipart(map[string]string{"file[display_name]": rec.File, "file[type]": "Report"}, "file[attachment]", rec.File, "application/json", content)
		return body, ctype, nil
	}
	return nil, "", fmt.Errorf("unknown operation %q", rec.Op)
}

func resultBody(nonce string, seq int64) []byte {
	b := fmt.Appendf(nil, "{\"osctl_nonce\":%q,\"seq\":%d,\"pad\":\"", nonce, seq)
	for i := 0; i < 256+int(seq%1024); i++ {
		b = append(b, "0123456789abcdef"[(int(seq)+i)%16])
	}
	return append(b, "\"}\n"...)
}

func (o *osOp) Request(ctx context.Context) (*http.Request, error) {
	var err error
	if o.body, o.ctype, err = o.p.body(o.rec); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, profile.JoinPath(o.target, o.rec.Path), bytes.NewReader(o.body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", o.ctype)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Osctl-Nonce", o.rec.Nonce)
	if o.p.Sending != nil {
		o.rec.Start = o.p.now()
		o.p.Sending(o.rec)
	}
	return req, nil
}

// Done implements attack.Op.
func (o *osOp) Done(r *attack.Result, resp *http.Response) attack.Outcome {
	o.body = nil
	out := profile.Finish(o.rec, r, resp, o.p.now)
	o.p.st.answered(o.rec, out == attack.Acknowledged)
	o.p.Record(o.rec)
	return out
}

// api is the run's client of the Load profile.API.
func (p *Load) api() profile.API {
	ts := p.Targets
	if p.Pool != nil {
		if live := p.Pool.Live(); len(live) > 0 {
			ts = live
		}
	}
	return profile.API{Client: p.Client, Targets: ts, Now: p.Now, Concurrency: p.SetupConcurrency}
}
