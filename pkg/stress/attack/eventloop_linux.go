//go:build linux

package attack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// The event loop is the closed-loop engine for plain http:// requests: non-blocking sockets
// driven by epoll, one loop per CPU, each loop serving its share of the slots, the way wrk
// works. At 10,000 requests in flight on a machine shared with the server, a goroutine per
// request spends more CPU in the scheduler and the garbage collector than the requests cost, and
// its sends trickle out one by one; a loop writes and reads whole batches between two
// epoll_wait calls. Operations get the status and headers (the body is not kept), which is all
// that status-only profiles need.

// EventLoopSupported reports whether this platform has the event loop.
const EventLoopSupported = true

// eventLoopOK reports whether req can go through the event loop.
func eventLoopOK(req *http.Request) bool {
	if req.URL == nil || req.URL.Scheme != "http" || req.ContentLength > maxEventLoopBody {
		return false
	}
	_, ok := appendRequestHead(nil, req)
	return ok
}

// errNotEventLoop is the error of an operation whose request the event loop cannot send.
var errNotEventLoop = errors.New("request not supported by the event-loop engine (https, or an unknown or large body)")

// errServerClosed is the error of a request whose connection the server closed before answering.
var errServerClosed = errors.New("server closed the connection before answering")

type evLoop struct {
	a        *attacker
	ctx      context.Context // sending: done means no new requests
	epfd     int
	socks    []*evSock // by id; nil when free
	free     []int32   // ids free for new sockets
	freed    []int32   // ids freed while a batch of events is handled, free after it
	workers  []*evSlot
	events   []syscall.EpollEvent
	scratch  []byte
	addrs    map[string]evAddr // by URL host
	inflight int
	stopped  bool // the source ran out, or sending stopped
	timeout  time.Duration
	idle     time.Duration
}

type evSlot struct {
	n     int
	socks []*evSock // one per target host
	busy  *evSock   // where the request in flight is
	op    Op
	r     Result
	resp  http.Response
	wbuf  []byte
	out   []byte // request bytes not yet written
	sent  bool   // some byte of the request was written

	deadline time.Time
	head     []byte // a head split across reads
	headDone bool
	mode     int
	left     int64
	chunk    chunkState
}

// evAddr is a resolved target address, as connect wants it and as errors name it.
type evAddr struct {
	sa syscall.Sockaddr
	ta *net.TCPAddr
}

type evSock struct {
	id         int32
	fd         int
	host       string
	addr       *net.TCPAddr
	w          *evSlot
	connecting bool
	pollOut    bool
	idleSince  time.Time
}

// eventLoops runs the closed loop on event loops and returns when every loop has ended.
func (a *attacker) eventLoops(ctx context.Context) error {
	n := min(runtime.GOMAXPROCS(0), a.o.Concurrency)
	loops := make([]*evLoop, n)
	for i := range loops {
		epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
		if err != nil {
			for _, l := range loops[:i] {
				_ = syscall.Close(l.epfd)
			}
			return fmt.Errorf("epoll_create1: %w", err)
		}
		l := &evLoop{a: a, ctx: ctx, epfd: epfd, events: make([]syscall.EpollEvent, 512), scratch: make([]byte, 64<<10),
			addrs: map[string]evAddr{}, timeout: a.o.Timeout, idle: 4 * time.Second}
		if l.timeout <= 0 {
			l.timeout = 30 * time.Second
		}
		for w := i; w < a.o.Concurrency; w += n {
			l.workers = append(l.workers, &evSlot{n: w})
		}
		loops[i] = l
	}
	var wg sync.WaitGroup
	for _, l := range loops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.run()
		}()
	}
	wg.Wait()
	return nil
}

func (l *evLoop) run() {
	defer l.closeAll()
	for _, w := range l.workers {
		l.start(w)
	}
	nextScan := l.a.o.Now().Add(100 * time.Millisecond)
	for l.inflight > 0 {
		if err := l.a.reqCtx.Err(); err != nil {
			l.cutAll(context.Cause(l.a.reqCtx))
			return
		}
		n, err := syscall.EpollWait(l.epfd, l.events, 100)
		if err != nil && !errors.Is(err, syscall.EINTR) {
			l.cutAll(fmt.Errorf("epoll_wait: %w", err))
			return
		}
		for i := 0; i < n; i++ {
			ev := l.events[i]
			if s := l.socks[ev.Fd]; s != nil {
				l.handle(s, ev.Events)
			}
		}
		// An id freed in this batch may still have events in it: reuse it only now.
		l.free, l.freed = append(l.free, l.freed...), l.freed[:0]
		if now := l.a.o.Now(); !now.Before(nextScan) {
			l.expire(now)
			nextScan = now.Add(100 * time.Millisecond)
		}
	}
}

// start sends slot w's next request, unless sending stopped or the source ran out.
// Operations that fail before anything is sent are ended here, and the next one taken.
func (l *evLoop) start(w *evSlot) {
	for !l.stopped {
		if l.ctx.Err() != nil {
			l.stopped = true
			return
		}
		op, ok := l.a.src.Next(l.ctx)
		if !ok {
			l.stopped = true
			return
		}
		now := l.a.o.Now()
		w.op, w.r = op, Result{Seq: l.a.seq.Add(1), Intended: now, Start: now}
		req, err := op.Request(l.a.reqCtx)
		if err != nil {
			w.r.End, w.r.Err = l.a.o.Now(), err
			l.a.st.record(w.n, &w.r, op.Done(&w.r, nil))
			l.a.afterDone()
			continue
		}
		l.inflight++
		l.a.st.enter()
		w.resp.Request = req
		ok = req.URL != nil && req.URL.Scheme == "http"
		if ok {
			w.wbuf, ok, err = appendRequest(w.wbuf[:0], req)
		}
		if !ok && err == nil {
			err = errNotEventLoop
			if req.Body != nil {
				_ = req.Body.Close()
			}
		}
		var s *evSock
		if err == nil {
			s, err = l.socketFor(w, req.URL.Host, now)
		}
		if err != nil {
			l.end(w, &NotSentError{err}, false)
			continue
		}
		w.out, w.sent, w.deadline = w.wbuf, false, now.Add(l.timeout)
		w.head, w.headDone, w.chunk = w.head[:0], false, chunkState{line: w.chunk.line[:0]}
		w.busy = s
		if !s.connecting {
			l.write(w)
		}
		return
	}
}

// socketFor returns w's open socket to host, connecting one when there is none.
func (l *evLoop) socketFor(w *evSlot, host string, now time.Time) (*evSock, error) {
	for i, s := range w.socks {
		if s.host != host {
			continue
		}
		if now.Sub(s.idleSince) <= l.idle {
			return s, nil
		}
		w.socks = append(w.socks[:i], w.socks[i+1:]...)
		l.closeSock(s)
		break
	}
	ad, err := l.sockaddr(host)
	if err != nil {
		return nil, err
	}
	sa := ad.sa
	domain := syscall.AF_INET
	if _, v6 := sa.(*syscall.SockaddrInet6); v6 {
		domain = syscall.AF_INET6
	}
	fd, err := syscall.Socket(domain, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, os.NewSyscallError("socket", err)
	}
	_ = syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1)
	s := &evSock{fd: fd, host: host, addr: ad.ta, w: w}
	err = syscall.Connect(fd, sa)
	switch {
	case err == nil:
	case errors.Is(err, syscall.EINPROGRESS):
		s.connecting = true
	default:
		_ = syscall.Close(fd)
		return nil, &net.OpError{Op: "dial", Net: "tcp", Addr: ad.ta, Err: os.NewSyscallError("connect", err)}
	}
	l.register(s)
	events := uint32(syscall.EPOLLIN | syscall.EPOLLRDHUP)
	if s.connecting {
		events = syscall.EPOLLOUT
	}
	if err := l.ctl(syscall.EPOLL_CTL_ADD, s, events); err != nil {
		l.closeSock(s)
		return nil, err
	}
	w.socks = append(w.socks, s)
	return s, nil
}

func (l *evLoop) register(s *evSock) {
	if n := len(l.free); n > 0 {
		s.id, l.free = l.free[n-1], l.free[:n-1]
		l.socks[s.id] = s
		return
	}
	s.id = int32(len(l.socks))
	l.socks = append(l.socks, s)
}

func (l *evLoop) ctl(op int, s *evSock, events uint32) error {
	ev := syscall.EpollEvent{Events: events, Fd: s.id}
	if err := syscall.EpollCtl(l.epfd, op, s.fd, &ev); err != nil {
		return os.NewSyscallError("epoll_ctl", err)
	}
	return nil
}

// sockaddr resolves host (the URL's host[:port]) once per loop.
func (l *evLoop) sockaddr(host string) (evAddr, error) {
	if ad, ok := l.addrs[host]; ok {
		return ad, nil
	}
	addr, err := dialAddr(&url.URL{Scheme: "http", Host: host})
	if err != nil {
		return evAddr{}, err
	}
	ta, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return evAddr{}, err
	}
	ad := evAddr{ta: ta}
	if ip4 := ta.IP.To4(); ip4 != nil {
		s4 := &syscall.SockaddrInet4{Port: ta.Port}
		copy(s4.Addr[:], ip4)
		ad.sa = s4
	} else {
		s6 := &syscall.SockaddrInet6{Port: ta.Port}
		copy(s6.Addr[:], ta.IP.To16())
		if ta.Zone != "" {
			if ifi, err := net.InterfaceByName(ta.Zone); err == nil {
				s6.ZoneId = uint32(ifi.Index)
			}
		}
		ad.sa = s6
	}
	l.addrs[host] = ad
	return ad, nil
}

func (l *evLoop) handle(s *evSock, events uint32) {
	w := s.w
	if s.connecting {
		if events&(syscall.EPOLLOUT|syscall.EPOLLERR|syscall.EPOLLHUP) == 0 {
			return
		}
		soerr, err := syscall.GetsockoptInt(s.fd, syscall.SOL_SOCKET, syscall.SO_ERROR)
		if err == nil && soerr != 0 {
			err = syscall.Errno(soerr)
		}
		if err != nil {
			if w.busy == s {
				l.fail(w, &NotSentError{&net.OpError{Op: "dial", Net: "tcp", Addr: s.addr, Err: os.NewSyscallError("connect", err)}}, false)
			} else {
				l.drop(s)
			}
			return
		}
		s.connecting = false
		if err := l.ctl(syscall.EPOLL_CTL_MOD, s, syscall.EPOLLIN|syscall.EPOLLRDHUP); err != nil {
			l.fail(w, &NotSentError{err}, false)
			return
		}
		if w.busy == s {
			l.write(w)
		}
		return
	}
	if s.pollOut && events&(syscall.EPOLLOUT|syscall.EPOLLERR) != 0 && w.busy == s {
		l.write(w)
		if w.busy != s {
			return
		}
	}
	if events&(syscall.EPOLLIN|syscall.EPOLLRDHUP|syscall.EPOLLHUP|syscall.EPOLLERR) != 0 {
		l.read(s)
	}
}

// write writes what is left of w's request.
func (l *evLoop) write(w *evSlot) {
	s := w.busy
	for len(w.out) > 0 {
		n, err := syscall.Write(s.fd, w.out)
		if n > 0 {
			w.sent = true
			w.out = w.out[n:]
		}
		switch {
		case err == nil:
		case errors.Is(err, syscall.EINTR):
		case errors.Is(err, syscall.EAGAIN):
			if !s.pollOut {
				s.pollOut = true
				if err := l.ctl(syscall.EPOLL_CTL_MOD, s, syscall.EPOLLIN|syscall.EPOLLRDHUP|syscall.EPOLLOUT); err != nil {
					l.fail(w, err, w.sent)
				}
			}
			return
		default:
			err = os.NewSyscallError("write", err)
			if !w.sent {
				err = &NotSentError{err}
			}
			l.fail(w, err, w.sent)
			return
		}
	}
	if s.pollOut {
		s.pollOut = false
		if err := l.ctl(syscall.EPOLL_CTL_MOD, s, syscall.EPOLLIN|syscall.EPOLLRDHUP); err != nil {
			l.fail(w, err, true)
		}
	}
}

// read reads what the socket has and feeds it to its slot's answer.
func (l *evLoop) read(s *evSock) {
	w := s.w
	for {
		n, err := syscall.Read(s.fd, l.scratch)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EAGAIN):
			return
		case err != nil || n == 0:
			if w.busy != s {
				l.drop(s)
				return
			}
			if err == nil && w.headDone && w.mode == bodyToEOF {
				l.complete(w, false)
				return
			}
			if err == nil {
				err = errServerClosed
				if w.headDone || len(w.head) > 0 {
					err = io.ErrUnexpectedEOF
				}
			} else {
				err = os.NewSyscallError("read", err)
			}
			l.fail(w, err, true)
			return
		}
		if w.busy != s || len(w.out) > 0 {
			// Bytes nobody asked for (or an answer before the request was written): the
			// connection is out of step.
			if w.busy == s {
				l.fail(w, errors.New("answer before the whole request was written"), true)
			} else {
				l.drop(s)
			}
			return
		}
		if !l.feed(w, l.scratch[:n]) || n < len(l.scratch) {
			return
		}
	}
}

// feed takes the next bytes of w's answer; it returns false once the answer ended or failed.
func (l *evLoop) feed(w *evSlot, data []byte) bool {
	for !w.headDone {
		var head []byte
		if len(w.head) == 0 {
			if i := headEnd(data); i >= 0 {
				head, data = data[:i], data[i:]
			}
		}
		if head == nil {
			w.head = append(w.head, data...)
			i := headEnd(w.head)
			if i < 0 {
				if len(w.head) > maxHead {
					l.fail(w, errHeadTooLong, true)
					return false
				}
				return true
			}
			head, data = w.head[:i], w.head[i:]
		}
		if err := l.parseHead(w, head); err != nil {
			l.fail(w, err, true)
			return false
		}
		if !w.headDone { // informational: the real answer follows
			rest := append([]byte(nil), data...)
			w.head, data = w.head[:0], rest
		}
	}
	switch w.mode {
	case bodyLength:
		k := min(int64(len(data)), w.left)
		w.left -= k
		data = data[k:]
		if w.left == 0 {
			l.complete(w, len(data) == 0)
			return false
		}
	case bodyChunked:
		used, done, err := w.chunk.consume(data)
		if err != nil {
			l.fail(w, err, true)
			return false
		}
		if done {
			l.complete(w, used == len(data))
			return false
		}
	case bodyToEOF:
	default:
		l.complete(w, len(data) == 0)
		return false
	}
	return true
}

// headEnd returns the length of the head at the start of b (through its empty line), or -1.
func headEnd(b []byte) int {
	if i := bytes.Index(b, []byte("\r\n\r\n")); i >= 0 {
		return i + 4
	}
	if i := bytes.Index(b, []byte("\n\n")); i >= 0 {
		return i + 2
	}
	return -1
}

// parseHead parses a whole head into w.resp and sets how its body is framed.
func (l *evLoop) parseHead(w *evSlot, head []byte) error {
	req := w.resp.Request
	first := true
	for len(head) > 0 {
		i := bytes.IndexByte(head, '\n')
		line := bytes.TrimSuffix(head[:i], []byte("\r"))
		head = head[i+1:]
		if first {
			if err := parseStatusLine(line, req, &w.resp); err != nil {
				return err
			}
			beginHeaders(w.resp.Header)
			first = false
			continue
		}
		if len(line) == 0 {
			break
		}
		if err := addHeader(w.resp.Header, line); err != nil {
			return err
		}
	}
	endHeaders(w.resp.Header)
	if informational(w.resp.StatusCode) {
		return nil
	}
	mode, n, err := framing(req, &w.resp)
	if err != nil {
		return err
	}
	w.mode, w.left, w.headDone = mode, n, true
	w.resp.Body = http.NoBody
	return nil
}

// complete ends w's request with its answer; keep says the socket may carry the next one.
func (l *evLoop) complete(w *evSlot, keep bool) {
	s := w.busy
	w.busy = nil
	w.r.End, w.r.Status, w.r.Sent = l.a.o.Now(), w.resp.StatusCode, true
	out := w.op.Done(&w.r, &w.resp)
	l.finish(w, out)
	if keep && !w.resp.Close {
		s.idleSince = w.r.End
	} else {
		l.drop(s)
	}
	w.op, w.resp.Request = nil, nil
	l.start(w)
}

// fail ends w's request with err, closes its socket and starts the next request.
func (l *evLoop) fail(w *evSlot, err error, sent bool) {
	l.end(w, err, sent)
	l.start(w)
}

// end ends w's request with err and closes its socket.
func (l *evLoop) end(w *evSlot, err error, sent bool) {
	if s := w.busy; s != nil {
		w.busy = nil
		l.drop(s)
	}
	w.r.End, w.r.Err, w.r.Sent, w.r.Timeout = l.a.o.Now(), err, sent, isTimeout(err)
	out := w.op.Done(&w.r, nil)
	l.finish(w, out)
	w.op, w.resp.Request = nil, nil
}

func (l *evLoop) finish(w *evSlot, out Outcome) {
	l.inflight--
	l.a.st.inflight.Add(-1)
	l.a.st.record(w.n, &w.r, out)
	l.a.afterDone()
}

// expire fails the requests past their deadline.
func (l *evLoop) expire(now time.Time) {
	for _, w := range l.workers {
		if w.busy != nil && now.After(w.deadline) {
			l.fail(w, fmt.Errorf("request timed out after %s: %w", l.timeout, os.ErrDeadlineExceeded), w.sent)
		}
	}
}

// cutAll fails every request in flight with err (Ctrl-C) without starting new ones.
func (l *evLoop) cutAll(err error) {
	l.stopped = true
	for _, w := range l.workers {
		if w.busy != nil {
			l.end(w, err, w.sent)
		}
	}
}

// drop closes s and forgets it.
func (l *evLoop) drop(s *evSock) {
	w := s.w
	for i, x := range w.socks {
		if x == s {
			w.socks = append(w.socks[:i], w.socks[i+1:]...)
			break
		}
	}
	l.closeSock(s)
}

func (l *evLoop) closeSock(s *evSock) {
	if s.fd < 0 {
		return
	}
	_ = syscall.Close(s.fd) // closing removes it from the epoll set
	s.fd = -1
	l.socks[s.id] = nil
	l.freed = append(l.freed, s.id)
}

func (l *evLoop) closeAll() {
	for _, s := range l.socks {
		if s != nil {
			l.closeSock(s)
		}
	}
	_ = syscall.Close(l.epfd)
}
