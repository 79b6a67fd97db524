package attack

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Client sends one request on behalf of a slot. Slots are numbered 0..Concurrency-1 and a
// slot sends one request at a time.
type Client interface {
	Do(slot int, req *http.Request) (*http.Response, error)
}

// StdClient adapts an *http.Client (one shared Transport) to Client.
type StdClient struct{ *http.Client }

// Do sends req with the shared client.
func (c StdClient) Do(_ int, req *http.Request) (*http.Response, error) { return c.Client.Do(req) }

// NotSentError wraps an error that happened before any byte of the request reached the
// connection: the server cannot have applied it.
type NotSentError struct{ Err error }

// Error returns the wrapped error's message.
func (e *NotSentError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *NotSentError) Unwrap() error { return e.Err }

// Conns is the attacker's HTTP/1.1 client: each slot owns one keep-alive connection per target
// host, so C slots hold exactly C connections, reused for the whole run (no pool hand-offs,
// no churn, no ephemeral-port exhaustion), with one goroutine per request in flight instead of
// three. Requests and answers go through the attacker's own wire format (wire.go).
type Conns struct {
	// Timeout bounds one request, from writing it to reading its body. Required.
	Timeout time.Duration
	// IdleTimeout closes a slot's connection that sat idle longer than this before it is reused
	// (before the server's own idle timeout closes it under a request). The default is 4s.
	IdleTimeout time.Duration
	// TLS configures https targets (nil: defaults, certificates verified).
	TLS *tls.Config

	dialer net.Dialer
	mu     sync.Mutex
	slots  []slot        // by slot number, below the concurrency given to NewConns
	extra  map[int]*slot // slots past it (not used by the attacker)
}

type slot struct {
	conns []*wconn // one per host, usually one
}

// wconn is one slot's connection with a small read buffer of its own (an answer's status line
// and headers usually arrive in one read), and the answer and body it hands out, reused from one
// request to the next: a slot has one request in flight, and its answer is drained and closed
// before the next.
type wconn struct {
	scheme, host string // the URL's, as the connection was dialled for
	c            net.Conn
	br           *bufio.Reader
	idle         time.Time
	dead         bool

	resp http.Response
	body connBody

	// deadline is the connection's deadline as last set; it is moved only when a request needs
	// it later (see deadlineSlack).
	deadline time.Time
	// watched is the context whose cancellation cuts the connection's request in flight;
	// unwatch stops that.
	watched context.Context
	unwatch func() bool
}

// readBufferSize is each connection's read buffer; longer header lines are still read whole.
const readBufferSize = 1 << 10

// NewConns returns a per-slot client for concurrency slots.
func NewConns(concurrency int, timeout time.Duration) *Conns {
	return &Conns{Timeout: timeout, slots: make([]slot, max(concurrency, 1)), extra: map[int]*slot{}, dialer: net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}}
}

// slot returns slot w's connections. A slot uses its slot alone, so no lock is needed for
// the slots made by NewConns.
func (p *Conns) slot(w int) *slot {
	if w >= 0 && w < len(p.slots) {
		return &p.slots[w]
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.extra[w]
	if s == nil {
		s = &slot{}
		p.extra[w] = s
	}
	return s
}

// Close closes every connection.
func (p *Conns) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	closeSlot := func(s *slot) {
		for _, c := range s.conns {
			c.close()
		}
		s.conns = nil
	}
	for i := range p.slots {
		closeSlot(&p.slots[i])
	}
	for _, s := range p.extra {
		closeSlot(s)
	}
}

func (wc *wconn) close() {
	wc.dead = true
	if wc.unwatch != nil {
		wc.unwatch()
		wc.unwatch, wc.watched = nil, nil
	}
	_ = wc.c.Close()
}

// dialAddr returns the address to dial for u.
func dialAddr(u *url.URL) (string, error) {
	port := u.Port()
	switch u.Scheme {
	case "http":
		if port == "" {
			port = "80"
		}
	case "https":
		if port == "" {
			port = "443"
		}
	default:
		return "", fmt.Errorf("unsupported scheme %q", u.Scheme)
	}
	return net.JoinHostPort(u.Hostname(), port), nil
}

func (p *Conns) dial(ctx context.Context, req *http.Request) (*wconn, error) {
	addr, err := dialAddr(req.URL)
	if err != nil {
		return nil, &NotSentError{err}
	}
	c, err := p.dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, &NotSentError{err}
	}
	if req.URL.Scheme == "https" {
		cfg := p.TLS.Clone()
		if cfg == nil {
			cfg = &tls.Config{}
		}
		if cfg.ServerName == "" {
			cfg.ServerName = req.URL.Hostname()
		}
		cfg.NextProtos = []string{"http/1.1"}
		tc := tls.Client(c, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			_ = c.Close()
			return nil, &NotSentError{err}
		}
		c = tc
	}
	wc := &wconn{scheme: req.URL.Scheme, host: req.URL.Host, c: c, br: bufio.NewReaderSize(c, readBufferSize)}
	wc.body.wc = wc
	return wc, nil
}

// deadlineSlack is how much later than a request needs a connection's deadline may be, so that
// the deadline moves (two timer updates in the runtime) once per slack rather than once per
// request: a request is cut after Timeout, and before Timeout plus the slack.
func (p *Conns) deadlineSlack() time.Duration { return min(p.Timeout/32, time.Second) }

// watch makes sure that ctx's cancellation cuts the request in flight on wc (one registration
// per connection and context, not one per request), and sets the connection's deadline for a
// request starting now.
func (wc *wconn) watch(ctx context.Context, deadline time.Time, slack time.Duration) {
	if wc.watched != ctx {
		if wc.unwatch != nil {
			wc.unwatch()
		}
		c := wc.c
		wc.watched, wc.unwatch = ctx, context.AfterFunc(ctx, func() { _ = c.SetDeadline(time.Unix(1, 0)) })
		wc.deadline = time.Time{}
	}
	if _, bounded := ctx.Deadline(); bounded || deadline.After(wc.deadline) || wc.deadline.Sub(deadline) > slack {
		if !bounded {
			deadline = deadline.Add(slack)
		}
		_ = wc.c.SetDeadline(deadline)
		wc.deadline = deadline
	}
	// Canceled between the caller's check and SetDeadline: the AfterFunc may have run before it.
	if ctx.Err() != nil {
		_ = wc.c.SetDeadline(time.Unix(1, 0))
		wc.deadline = time.Time{}
	}
}

// Do implements Client.
func (p *Conns) Do(w int, req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		return nil, &NotSentError{context.Cause(ctx)}
	}
	s := p.slot(w)
	idleTimeout := p.IdleTimeout
	if idleTimeout <= 0 {
		idleTimeout = 4 * time.Second
	}
	var wc *wconn
	for i, c := range s.conns {
		if c.host == req.URL.Host && c.scheme == req.URL.Scheme {
			if c.dead || time.Since(c.idle) > idleTimeout {
				c.close()
				s.conns = append(s.conns[:i], s.conns[i+1:]...)
			} else {
				wc = c
			}
			break
		}
	}
	if wc == nil {
		var err error
		if wc, err = p.dial(ctx, req); err != nil {
			return nil, err
		}
		s.conns = append(s.conns, wc)
	}
	deadline := time.Now().Add(p.Timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	wc.watch(ctx, deadline, p.deadlineSlack())
	fail := func(err error) (*http.Response, error) {
		wc.close()
		if ctx.Err() != nil {
			err = fmt.Errorf("%w: %v", context.Cause(ctx), err)
		}
		return nil, err
	}
	if sent, err := writeRequest(wc.c, req); err != nil {
		if !sent {
			return fail(&NotSentError{err})
		}
		return fail(err)
	}
	if err := readResponseHead(wc.br, req, &wc.resp, &wc.body); err != nil {
		return fail(err)
	}
	return &wc.resp, nil
}

// connBody reads an answer's body from its connection, and returns the connection for reuse
// when the body was read to its end and the server keeps the connection open; otherwise the
// connection is closed.
type connBody struct {
	wc   *wconn
	mode int
	n    int64     // bytes left (bodyLength)
	cr   io.Reader // bodyChunked
	eof  bool
	keep bool
	done bool
}

func (b *connBody) Read(p []byte) (int, error) {
	if b.done {
		return 0, errors.New("http: read on closed response body")
	}
	if b.eof {
		return 0, io.EOF
	}
	var (
		n   int
		err error
	)
	switch b.mode {
	case bodyLength:
		if int64(len(p)) > b.n {
			p = p[:b.n]
		}
		n, err = b.wc.br.Read(p)
		b.n -= int64(n)
		if b.n == 0 {
			b.eof, err = true, io.EOF
		} else if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
	case bodyChunked:
		n, err = b.cr.Read(p)
		if errors.Is(err, io.EOF) {
			// The chunked reader stops at the last chunk; the trailer lines and the empty
			// line that ends the body are read here.
			total := 0
			for {
				line, lerr := readLine(b.wc.br, &total)
				if lerr != nil {
					err = lerr
					break
				}
				if len(line) == 0 {
					b.eof = true
					break
				}
			}
		}
	case bodyToEOF:
		n, err = b.wc.br.Read(p)
		if errors.Is(err, io.EOF) {
			b.eof = true
		}
	default:
		b.eof, err = true, io.EOF
	}
	if err != nil && !b.eof {
		b.wc.dead = true
	}
	return n, err
}

// discard reads and drops up to limit bytes of the body, without copying those already
// buffered.
func (b *connBody) discard(limit int64) {
	if b.mode == bodyLength && !b.done && !b.eof && b.n <= limit {
		n, err := b.wc.br.Discard(int(b.n))
		b.n -= int64(n)
		if err != nil {
			b.wc.dead = true
			return
		}
		b.eof = true
		return
	}
	_, _ = io.CopyN(io.Discard, b, limit)
}

// Close ends the answer: its connection is kept for the slot's next request only if the body
// was read whole and nothing follows it.
func (b *connBody) Close() error {
	if b.done {
		return nil
	}
	b.done = true
	wc := b.wc
	if wc.br.Buffered() > 0 { // bytes after a whole answer: the connection is out of step
		wc.dead = true
	}
	if !b.eof || !b.keep || wc.dead {
		wc.close()
		return nil
	}
	wc.idle = time.Now()
	return nil
}
