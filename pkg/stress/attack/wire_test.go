package attack

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// forEachEngine runs f with each closed-loop engine: a goroutine per request on Conns, and the
// event loops where the platform has them.
func forEachEngine(t *testing.T, f func(t *testing.T, eventLoop bool)) {
	t.Run("goroutines", func(t *testing.T) { f(t, false) })
	if EventLoopSupported {
		t.Run("eventloop", func(t *testing.T) { f(t, true) })
	}
}

// rawServer answers with hand-written bytes, to cover every way an answer can be framed and
// split across reads. It counts the connections it accepted.
type rawServer struct {
	ln    net.Listener
	conns atomic.Int64
	wg    sync.WaitGroup
}

// rawAnswers are the answers by path: the pieces are written one by one (pauses between them
// make the client read a split answer), and close ends the connection afterwards.
var rawAnswers = map[string]struct {
	pieces []string
	close  bool
	status int
	body   string
}{
	"/length":    {pieces: []string{"HTTP/1.1 200 OK\r\nX-Path: /length\r\nContent-Length: 5\r\n\r\nhello"}, status: 200, body: "hello"},
	"/chunked":   {pieces: []string{"HTTP/1.1 200 OK\r\nX-Path: /chunked\r\nTransfer-Encoding: chunked\r\n\r\n", "5\r\nhel", "lo\r\n3;x=1\r\nabc\r", "\n0\r\n", "X-Trailer: 1\r\n\r\n"}, status: 200, body: "helloabc"},
	"/eof":       {pieces: []string{"HTTP/1.0 200 OK\r\nX-Path: /eof\r\n\r\nuntil ", "close"}, close: true, status: 200, body: "until close"},
	"/close":     {pieces: []string{"HTTP/1.1 503 Service Unavailable\r\nX-Path: /close\r\nConnection: close\r\nContent-Length: 4\r\n\r\nbusy"}, close: true, status: 503, body: "busy"},
	"/continue":  {pieces: []string{"HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 201 Created\r\nX-Path: /continue\r\nContent-Length: 0\r\n\r\n"}, status: 201},
	"/nocontent": {pieces: []string{"HTTP/1.1 204 No Content\r\nX-Path: /nocontent\r\n\r\n"}, status: 204},
	"/split":     {pieces: strings.Split("HTTP/1.1 202 Accepted\r\nX-Path: /split\r\nContent-Length: 3\r\n\r\nabc", ""), status: 202, body: "abc"},
	"/big":       {pieces: []string{"HTTP/1.1 200 OK\r\nX-Path: /big\r\nContent-Length: 200000\r\n\r\n", strings.Repeat("x", 100000), strings.Repeat("x", 100000)}, status: 200, body: strings.Repeat("x", 200000)},
	"/echo":      {status: 200}, // answered with the request's X-Seq and body length
}

func newRawServer(t *testing.T) *rawServer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{ln: ln}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.conns.Add(1)
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.serve(c)
			}()
		}
	}()
	t.Cleanup(func() { _ = ln.Close(); s.wg.Wait() })
	return s
}

func (s *rawServer) serve(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		body, _ := io.ReadAll(req.Body)
		a, ok := rawAnswers[req.URL.Path]
		if !ok {
			return
		}
		pieces := a.pieces
		if req.URL.Path == "/echo" {
			pieces = []string{fmt.Sprintf("HTTP/1.1 200 OK\r\nX-Path: /echo\r\nX-Seq: %s\r\nX-Len: %d\r\nContent-Length: 0\r\n\r\n", req.Header.Get("X-Seq"), len(body))}
		}
		for i, p := range pieces {
			if i > 0 && len(pieces) < 10 {
				time.Sleep(2 * time.Millisecond)
			}
			if _, err := io.WriteString(c, p); err != nil {
				return
			}
		}
		if a.close {
			return
		}
	}
}

// rawOp asks for one path and checks the answer it gets: status, headers (X-Path, and the
// echoed X-Seq that differs per request) and, when the engine hands it over, the body.
type rawOp struct {
	url  string
	path string
	seq  int
	bad  func(string)
}

func (o rawOp) Request(ctx context.Context) (*http.Request, error) {
	if o.path == "/echo" {
		body := strings.Repeat("b", o.seq%300)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.url+o.path, strings.NewReader(body))
		if err == nil {
			req.Header.Set("X-Seq", strconv.Itoa(o.seq))
		}
		return req, err
	}
	return http.NewRequestWithContext(ctx, http.MethodGet, o.url+o.path, nil)
}

func (o rawOp) Done(r *Result, resp *http.Response) Outcome {
	a := rawAnswers[o.path]
	switch {
	case resp == nil:
		o.bad(fmt.Sprintf("%s: %v", o.path, r.Err))
	case resp.StatusCode != a.status || r.Status != a.status:
		o.bad(fmt.Sprintf("%s: status %d, want %d", o.path, resp.StatusCode, a.status))
	case resp.Header.Get("X-Path") != o.path:
		o.bad(fmt.Sprintf("%s: X-Path %q", o.path, resp.Header.Get("X-Path")))
	case o.path == "/echo" && (resp.Header.Get("X-Seq") != strconv.Itoa(o.seq) || resp.Header.Get("X-Len") != strconv.Itoa(o.seq%300)):
		o.bad(fmt.Sprintf("%s %d: echoed X-Seq %q X-Len %q", o.path, o.seq, resp.Header.Get("X-Seq"), resp.Header.Get("X-Len")))
	case resp.Body != http.NoBody:
		if b, _ := io.ReadAll(resp.Body); string(b) != a.body {
			o.bad(fmt.Sprintf("%s: body %d bytes, want %d", o.path, len(b), len(a.body)))
		}
	}
	return Classify(r)
}

// TestAnswerFraming: every way of framing an answer (length, chunked with extensions and
// trailers, to the end of the connection, Connection: close, 100 Continue first, 204, an answer
// split byte by byte, a body larger than any buffer), and POST bodies, go through both engines
// with the right status, headers and body for every request, and connections are reused unless
// the server closes them.
func TestAnswerFraming(t *testing.T) {
	forEachEngine(t, func(t *testing.T, eventLoop bool) {
		srv := newRawServer(t)
		base := "http://" + srv.ln.Addr().String()
		paths := []string{"/length", "/chunked", "/eof", "/close", "/continue", "/nocontent", "/split", "/big", "/echo", "/echo"}
		const n, c = 400, 8
		var mu sync.Mutex
		var bad []string
		var i atomic.Int64
		src := SourceFunc(func(context.Context) (Op, bool) {
			k := int(i.Add(1))
			if k > n {
				return nil, false
			}
			return rawOp{url: base, path: paths[k%len(paths)], seq: k, bad: func(s string) { mu.Lock(); bad = append(bad, s); mu.Unlock() }}, true
		})
		conns := NewConns(c, 10*time.Second)
		defer conns.Close() // before the server's cleanup waits for its connections to end
		st := Run(context.Background(), conns, src, Options{Concurrency: c, EventLoop: eventLoop})
		if len(bad) > 0 {
			t.Fatalf("%d wrong answers, first: %s", len(bad), bad[0])
		}
		cnt := st.Counts()
		if cnt.Total != n || cnt.Errors != 0 || cnt.Status503 != int64(n/len(paths)) {
			t.Fatalf("counts %+v", cnt)
		}
		closing := int64(2 * n / len(paths)) // /eof and /close end their connection
		if got := srv.conns.Load(); got > c+closing {
			t.Fatalf("%d connections for %d workers and %d closing answers: connections were not reused", got, c, closing)
		}
	})
}

// TestEventLoopEngineIsUsed: with EventLoop set, answers reach operations without their body
// (the event loops do not keep it), which tells the engines apart.
func TestEventLoopEngineIsUsed(t *testing.T) {
	if !EventLoopSupported {
		t.Skip("no event loop on this platform")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("body")) }))
	defer srv.Close()
	var withBody atomic.Int64
	op := &bodyProbe{url: srv.URL, withBody: &withBody}
	var i atomic.Int64
	st := Run(context.Background(), NewConns(2, 5*time.Second), SourceFunc(func(context.Context) (Op, bool) { return op, i.Add(1) <= 10 }),
		Options{Concurrency: 2, EventLoop: true})
	if c := st.Counts(); c.Acknowledged != 10 || withBody.Load() != 0 {
		t.Fatalf("%+v, %d answers with a body", c, withBody.Load())
	}
}

type bodyProbe struct {
	url      string
	withBody *atomic.Int64
}

func (o *bodyProbe) Request(ctx context.Context) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodGet, o.url, nil)
}

func (o *bodyProbe) Done(r *Result, resp *http.Response) Outcome {
	if resp != nil && resp.Body != http.NoBody {
		o.withBody.Add(1)
	}
	return Classify(r)
}

// TestRequestWire: what the attacker writes is read back by net/http as the same request, and
// requests it does not write itself are left to http.Request.Write.
func TestRequestWire(t *testing.T) {
	u, _ := url.Parse("http://example.test:8080/a/b%20c?x=1&y=2")
	req := &http.Request{Method: http.MethodPut, URL: u, Host: u.Host, Header: http.Header{"X-A": {"1", "2"}, "User-Agent": {"osctl-test"}},
		Body: io.NopCloser(strings.NewReader("payload")), ContentLength: 7}
	b, ok, err := appendRequest(nil, req)
	if !ok || err != nil {
		t.Fatalf("ok %v err %v", ok, err)
	}
	got, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(b)))
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	body, _ := io.ReadAll(got.Body)
	if got.Method != http.MethodPut || got.RequestURI != "/a/b%20c?x=1&y=2" || got.Host != "example.test:8080" || string(body) != "payload" ||
		got.Header.Get("User-Agent") != "osctl-test" || strings.Join(got.Header["X-A"], ",") != "1,2" || got.ContentLength != 7 {
		t.Fatalf("read back %+v body %q", got, body)
	}
	for ua, want := range map[string]string{"": "", "osctl-test": "osctl-test"} {
		r := &http.Request{Method: http.MethodGet, URL: u, Header: http.Header{"User-Agent": {ua}}}
		b, _ := appendRequestHead(nil, r)
		got, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(b)))
		if err != nil || got.Header.Get("User-Agent") != want || len(got.Header["User-Agent"]) > 1 {
			t.Fatalf("User-Agent %q: sent %q (%v)\n%s", ua, got.Header["User-Agent"], err, b)
		}
	}
	if b, _ := appendRequestHead(nil, &http.Request{Method: http.MethodGet, URL: u, Header: http.Header{}}); !bytes.Contains(b, []byte("User-Agent: Go-http-client/1.1\r\n")) {
		t.Fatalf("no User-Agent header: want Go's, as net/http\n%s", b)
	}
	post := &http.Request{Method: http.MethodPost, URL: u, Header: http.Header{}}
	if b, ok := appendRequestHead(nil, post); !ok || !bytes.Contains(b, []byte("Content-Length: 0\r\n")) || !bytes.Contains(b, []byte("Host: example.test:8080\r\n")) {
		t.Fatalf("empty POST: ok %v\n%s", ok, b)
	}
	for name, r := range map[string]*http.Request{
		"unknown length": {Method: http.MethodPost, URL: u, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("x")), ContentLength: -1},
		"close":          {Method: http.MethodGet, URL: u, Header: http.Header{}, Close: true},
		"bad header":     {Method: http.MethodGet, URL: u, Header: http.Header{"X-A": {"a\r\nInjected: 1"}}},
		"bad name":       {Method: http.MethodGet, URL: u, Header: http.Header{"X A": {"1"}}},
		"bad host":       {Method: http.MethodGet, URL: u, Host: "a b", Header: http.Header{}},
	} {
		if _, ok := appendRequestHead(nil, r); ok {
			t.Errorf("%s: written by the attacker, want http.Request.Write", name)
		}
	}
}

// TestChunkedSplits: a chunked body ends at the same byte however its bytes are split.
func TestChunkedSplits(t *testing.T) {
	body := "5\r\nhello\r\n1A;name=v\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nTrailer: t\r\n\r\n"
	stream := body + "NEXT"
	for cut := 1; cut < len(stream); cut++ {
		var c chunkState
		used1, done1, err := c.consume([]byte(stream[:cut]))
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		total := used1
		if !done1 {
			used2, done2, err := c.consume([]byte(stream[cut:]))
			if err != nil || !done2 {
				t.Fatalf("cut %d: done %v err %v", cut, done2, err)
			}
			total += used2
		}
		if total != len(body) {
			t.Fatalf("cut %d: body ends at %d, want %d", cut, total, len(body))
		}
	}
	for _, bad := range []string{"zz\r\n", "5\r\nhelloXX\r\n", strings.Repeat("1", 16) + "\r\n"} {
		var c chunkState
		if _, _, err := c.consume([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestResponseHeadErrors: malformed answers are errors naming what was wrong, on both engines.
func TestResponseHeadErrors(t *testing.T) {
	for _, answer := range []string{
		"HTTP/1.1 2x0 OK\r\n\r\n",
		"SPDY/3 200 OK\r\n\r\n",
		"HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
	} {
		forEachEngine(t, func(t *testing.T, eventLoop bool) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					go func() {
						defer c.Close()
						if _, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
							_, _ = io.WriteString(c, answer)
						}
						time.Sleep(50 * time.Millisecond)
					}()
				}
			}()
			st := Run(context.Background(), NewConns(1, 5*time.Second), limited(1, "http://"+ln.Addr().String()+"/"), Options{Concurrency: 1, EventLoop: eventLoop})
			if c := st.Counts(); c.Errors != 1 || c.Ambiguous != 1 {
				t.Fatalf("%q: %+v", answer, c)
			}
		})
	}
}
