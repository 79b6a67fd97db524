package httpload

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// Routes is the http profile's load: each target URL is the route itself. Requests are made as they are
// sent, so a run bounded by duration alone holds no plan in memory.
type Routes struct {
	Run     string
	Targets []profile.Target
	Method  string
	Header  http.Header
	// Body is a template: {{nonce}} and {{seq}} are replaced per request.
	Body string
	// Requests bounds the run; 0 means unbounded (bounded by duration).
	Requests int64
	// Record, when set, receives one history line per request.
	Record profile.Recorder
	Now    func() time.Time
	// Shard is this process's part of the load (the zero Shard: all of it).
	Shard profile.Shard

	next    atomic.Int64
	hasTmpl bool
	urls    []string
	parsed  []*url.URL
	body    []byte
	tmpl    atomic.Pointer[[]*http.Request] // one request per target on the run's context, copied per request
}

// Source returns the requests.
func (p *Routes) Source() attack.Source {
	p.hasTmpl = strings.Contains(p.Body, "{{")
	for _, t := range p.Targets {
		p.urls = append(p.urls, t.URL.Redacted()) // for the history only: never a password
		p.parsed = append(p.parsed, t.URL)
	}
	p.body = []byte(p.Body)
	if p.Header == nil {
		p.Header = http.Header{}
	}
	if _, set := p.Header["User-Agent"]; !set {
		// Like wrk, no User-Agent unless --header gives one: the request is the route alone.
		p.Header["User-Agent"] = []string{""}
	}
	if p.Method == "" {
		p.Method = http.MethodGet
	}
	n := p.Shard.Len(p.Requests)
	return attack.SourceFunc(func(context.Context) (attack.Op, bool) {
		j := p.next.Add(1) - 1
		if p.Requests > 0 && j >= n {
			return nil, false
		}
		return &httpOp{p: p, seq: p.Shard.Global(j) + 1}, true
	})
}

// template returns target i's request on ctx (the attacker hands every operation the same one).
func (p *Routes) template(ctx context.Context, i int) *http.Request {
	if t := p.tmpl.Load(); t != nil && (*t)[i].Context() == ctx {
		return (*t)[i]
	}
	t := make([]*http.Request, len(p.parsed))
	for j, u := range p.parsed {
		t[j] = (&http.Request{Method: p.Method, URL: u, Host: u.Host, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: p.Header}).WithContext(ctx)
	}
	p.tmpl.Store(&t)
	return t[i]
}

// EventLoopOK reports whether every target's request can go through the attacker's event loops
// (attack.EventLoopOK); call it after Source.
func (p *Routes) EventLoopOK() bool {
	for i := range p.parsed {
		req, err := (&httpOp{p: p, seq: int64(i)}).Request(context.Background())
		if err != nil || !attack.EventLoopOK(req) {
			return false
		}
	}
	return true
}

type httpOp struct {
	p   *Routes
	seq int64
}

// Request builds the request without parsing the URL again: the URL and header are shared,
// read-only, by every request.
func (o *httpOp) Request(ctx context.Context) (*http.Request, error) {
	p := o.p
	req := new(http.Request)
	*req = *p.template(ctx, int(o.seq)%len(p.parsed))
	if len(p.body) > 0 {
		b := p.body
		if p.hasTmpl {
			s := strings.ReplaceAll(p.Body, "{{nonce}}", profile.Nonce(p.Run, o.seq))
			b = []byte(strings.ReplaceAll(s, "{{seq}}", strconv.FormatInt(o.seq, 10)))
		}
		req.Body = io.NopCloser(bytes.NewReader(b))
		req.ContentLength = int64(len(b))
	}
	return req, nil
}

func (o *httpOp) Done(r *attack.Result, resp *http.Response) attack.Outcome {
	out := attack.Classify(r)
	if o.p.Record != nil {
		rec := &history.Record{Kind: history.KindRequest, Seq: o.seq, Op: history.OpHTTP, Method: o.p.Method,
			Target: o.p.urls[int(o.seq)%len(o.p.urls)], Nonce: profile.Nonce(o.p.Run, o.seq), Start: r.Start, End: time.Now(), Status: r.Status, Outcome: out.String()}
		if o.p.Now != nil {
			rec.End = o.p.Now()
		}
		if r.Err != nil {
			rec.Error, rec.Timeout = r.Err.Error(), r.Timeout
		}
		if r.Intended.Before(r.Start) {
			rec.Intended = r.Intended
		}
		o.p.Record(rec)
	}
	return out
}
