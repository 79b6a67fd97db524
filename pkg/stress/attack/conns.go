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
	"sync"
	"time"
)

// Client sends one request on behalf of a worker. Workers are numbered 0..Concurrency-1 and a
// worker sends one request at a time.
type Client interface {
	Do(worker int, req *http.Request) (*http.Response, error)
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

// Conns is the attacker's HTTP/1.1 client: each worker owns one keep-alive connection per target
// host, so C workers hold exactly C connections, reused for the whole run (no pool hand-offs,
// no churn, no ephemeral-port exhaustion), with one goroutine per request in flight instead of
// three. Requests are written with http.Request.Write and answers read with
// http.ReadResponse.
type Conns struct {
	// Timeout bounds one request, from writing it to reading its body. Required.
	Timeout time.Duration
	// IdleTimeout closes a worker's connection that sat idle longer than this before it is reused
	// (before the server's own idle timeout closes it under a request). The default is 4s.
	IdleTimeout time.Duration
	// TLS configures https targets (nil: defaults, certificates verified).
	TLS *tls.Config

	dialer net.Dialer
	mu     sync.Mutex
	slots  []slot        // by worker number, below the concurrency given to NewConns
	extra  map[int]*slot // workers past it (not used by the attacker)
}

type slot struct {
	conns []*wconn // one per host, usually one
}

// wconn is one worker's connection with a small read buffer of its own (an answer's status line
// and headers usually arrive in one read); requests are written through a pooled writer, so that
// 10,000 connections cost their sockets and 1 KiB each.
type wconn struct {
	key  string // scheme://host:port
	c    net.Conn
	br   *bufio.Reader
	cw   countingWriter
	idle time.Time
	dead bool
}

// readBufferSize is each connection's read buffer; longer header lines are still read whole.
const readBufferSize = 1 << 10

var writerPool = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 4<<10) }}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// NewConns returns a per-worker client for concurrency workers.
func NewConns(concurrency int, timeout time.Duration) *Conns {
	return &Conns{Timeout: timeout, slots: make([]slot, max(concurrency, 1)), extra: map[int]*slot{}, dialer: net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}}
}

// slot returns worker w's connections. A worker uses its slot alone, so no lock is needed for
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
			_ = c.c.Close()
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

func hostKey(req *http.Request) (key, addr string, err error) {
	u := req.URL
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
		return "", "", fmt.Errorf("unsupported scheme %q", u.Scheme)
	}
	addr = net.JoinHostPort(u.Hostname(), port)
	return u.Scheme + "://" + addr, addr, nil
}

func (p *Conns) dial(ctx context.Context, req *http.Request, key, addr string) (*wconn, error) {
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
	wc := &wconn{key: key, c: c, br: bufio.NewReaderSize(c, readBufferSize)}
	wc.cw.w = c
	return wc, nil
}

// Do implements Client.
func (p *Conns) Do(w int, req *http.Request) (*http.Response, error) {
	key, addr, err := hostKey(req)
	if err != nil {
		return nil, &NotSentError{err}
	}
	s := p.slot(w)
	idleTimeout := p.IdleTimeout
	if idleTimeout <= 0 {
		idleTimeout = 4 * time.Second
	}
	var wc *wconn
	for i, c := range s.conns {
		if c.key == key {
			if c.dead || time.Since(c.idle) > idleTimeout {
				_ = c.c.Close()
				s.conns = append(s.conns[:i], s.conns[i+1:]...)
			} else {
				wc = c
			}
			break
		}
	}
	ctx := req.Context()
	if wc == nil {
		if wc, err = p.dial(ctx, req, key, addr); err != nil {
			return nil, err
		}
		s.conns = append(s.conns, wc)
	}
	deadline := time.Now().Add(p.Timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = wc.c.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { _ = wc.c.SetDeadline(time.Unix(1, 0)) })
	fail := func(err error) (*http.Response, error) {
		stop()
		wc.dead = true
		_ = wc.c.Close()
		if ctx.Err() != nil {
			err = fmt.Errorf("%w: %v", context.Cause(ctx), err)
		}
		return nil, err
	}
	before := wc.cw.n
	bw := writerPool.Get().(*bufio.Writer)
	bw.Reset(&wc.cw)
	err = req.Write(bw)
	if err == nil {
		err = bw.Flush()
	}
	bw.Reset(nil)
	writerPool.Put(bw)
	if err != nil {
		if wc.cw.n == before {
			return fail(&NotSentError{err})
		}
		return fail(err)
	}
	resp, err := http.ReadResponse(wc.br, req)
	if err != nil {
		return fail(err)
	}
	resp.Body = &connBody{rc: resp.Body, wc: wc, stop: stop, keep: !resp.Close}
	return resp, nil
}

// connBody returns the connection for reuse when the body was read to its end and the server
// keeps the connection open; otherwise the connection is closed.
type connBody struct {
	rc   io.ReadCloser
	wc   *wconn
	stop func() bool
	eof  bool
	keep bool
	done bool
}

func (b *connBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if errors.Is(err, io.EOF) {
		b.eof = true
	} else if err != nil {
		b.wc.dead = true
	}
	return n, err
}

func (b *connBody) Close() error {
	if b.done {
		return nil
	}
	b.done = true
	err := b.rc.Close()
	b.stop()
	if b.wc.br.Buffered() > 0 { // bytes after a whole answer: the connection is out of step
		b.wc.dead = true
	}
	if !b.eof || !b.keep || err != nil || b.wc.dead {
		b.wc.dead = true
		_ = b.wc.c.Close()
		return err
	}
	b.wc.idle = time.Now()
	return nil
}
