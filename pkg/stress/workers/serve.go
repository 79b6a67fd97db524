package workers

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	pstress "github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// ServeOptions tune a worker.
type ServeOptions struct {
	// Version is this osctl's: a configuration from another version is refused.
	Version string
	// Idle is how long the worker goes on without hearing from the coordinator (which pings every
	// PingEvery) before it stops. The default is DefaultIdle.
	Idle time.Duration
	// ProgressEvery is how often the load's progress is sent. The default is 250ms.
	ProgressEvery time.Duration
}

// DefaultIdle is how long a worker waits for word from the coordinator before it stops.
const DefaultIdle = 30 * time.Second

// ErrVersion is the error Serve returns when it refused a configuration from another osctl
// version.
var ErrVersion = errors.New("configuration from another osctl version")

// Serve is `osctl stress worker`: it reads the coordinator's frames from in, runs what they ask
// on a stress.Sender, and writes its answers, records and progress to out. It returns nil after
// "bye", ErrVersion (wrapped) when the configuration came from another version, and an error
// when the coordinator went quiet or the streams broke.
func Serve(ctx context.Context, in io.Reader, out io.Writer, o ServeOptions) error {
	if o.Idle <= 0 {
		o.Idle = DefaultIdle
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 250 * time.Millisecond
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s := &server{o: o, out: newWriter(out, func(err error) { cancel(fmt.Errorf("writing to the coordinator: %v", err)) }), frames: make(chan *frame, 16)}
	defer s.out.stop()
	s.heard.Store(time.Now().UnixNano())
	go s.read(ctx, in, cancel)
	go s.watch(ctx, cancel)
	defer func() {
		if s.w != nil {
			s.w.Close()
		}
	}()
	for {
		f, err := s.next(ctx)
		if err != nil {
			return err
		}
		if err := s.handle(ctx, f); err != nil {
			return err
		}
		if f.T == tBye {
			return s.out.flush()
		}
	}
}

type server struct {
	o      ServeOptions
	out    *writer
	frames chan *frame
	heard  atomic.Int64 // unix nanos of the last frame
	index  int
	keep   bool         // the coordinator keeps every record (else only counts and histograms)
	shift  atomic.Int64 // added to this host's clock
	w      *pstress.Sender

	loadMu  sync.Mutex
	stopFn  context.CancelFunc // stops the load in progress
	goCh    chan struct{}
	stopped bool
}

func (s *server) now() time.Time { return time.Now().Add(time.Duration(s.shift.Load())) }

// read parses frames from in until it ends; it never waits for in's end to act on a frame.
func (s *server) read(ctx context.Context, in io.Reader, cancel context.CancelCauseFunc) {
	err := readFrames(in, func(f *frame) bool {
		s.heard.Store(time.Now().UnixNano())
		switch f.T {
		case tPing:
			return true
		case tStop, tGo:
			s.control(f.T) // acted on at once, even while a load runs
			return true
		}
		select {
		case s.frames <- f:
			return true
		case <-ctx.Done():
			return false
		}
	})
	var bad *notAFrame
	switch {
	case err == nil:
		return // the context ended
	case errors.As(err, &bad):
		cancel(fmt.Errorf("a frame from the coordinator is not JSON: %v", bad.err))
	default:
		cancel(fmt.Errorf("the coordinator's stream ended: %v", err))
	}
}

func (s *server) control(t string) {
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	switch t {
	case tStop:
		s.stopped = true
		if s.stopFn != nil {
			s.stopFn()
		}
		if s.goCh != nil {
			select {
			case <-s.goCh:
			default:
				close(s.goCh) // a stop before go: the load starts and ends at once
			}
		}
	case tGo:
		if s.goCh != nil {
			select {
			case <-s.goCh:
			default:
				close(s.goCh)
			}
		}
	}
}

// watch stops everything once the coordinator has been quiet for Idle (it pings while it lives):
// a worker whose coordinator died stops its load instead of running to its end.
func (s *server) watch(ctx context.Context, cancel context.CancelCauseFunc) {
	t := time.NewTicker(max(s.o.Idle/8, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if time.Since(time.Unix(0, s.heard.Load())) > s.o.Idle {
				cancel(fmt.Errorf("no word from the coordinator for %s: stopping", s.o.Idle))
				return
			}
		}
	}
}

// next waits for the next frame; frames read before the stream ended come first.
func (s *server) next(ctx context.Context) (*frame, error) {
	select {
	case f := <-s.frames:
		return f, nil
	default:
	}
	select {
	case f := <-s.frames:
		return f, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

func (s *server) fail(err error) error {
	f := &frame{T: tError, Error: err.Error()}
	var ae *profile.AuthError
	if errors.As(err, &ae) {
		f.Code, f.Auth = codeAuth, ae
	}
	return s.out.send(f, true)
}

func (s *server) handle(ctx context.Context, f *frame) error {
	if s.w == nil && f.T != tHello && f.T != tBye {
		return s.fail(fmt.Errorf("%q before hello", f.T))
	}
	switch f.T {
	case tHello:
		return s.hello(f.Hello)
	case tClock:
		s.shift.Store(f.ShiftNS)
		return nil
	case tProbe:
		pr, err := s.w.Probe(ctx)
		if err != nil {
			return s.fail(err)
		}
		return s.out.send(&frame{T: tProbe, Probe: pr}, true)
	case tCheck:
		if err := s.w.Check(ctx); err != nil {
			return s.fail(err)
		}
		return s.out.send(&frame{T: tOK}, true)
	case tSetup:
		st, err := s.w.Setup(ctx, s.record)
		if err != nil {
			return s.fail(err)
		}
		return s.out.send(&frame{T: tSetup, Setup: st}, true)
	case tLoad:
		return s.load(ctx, f.Setup)
	case tJobCounts:
		jobs, queued := s.w.JobCounts(ctx)
		return s.out.send(&frame{T: tJobCounts, Jobs: jobs, Queued: queued}, true)
	case tReadback:
		plan := profile.ReadbackPlan{}
		if f.Plan != nil {
			plan = *f.Plan
		}
		if err := s.w.Readback(ctx, plan, s.record); err != nil {
			return s.fail(err)
		}
		return s.out.send(&frame{T: tDone}, true)
	case tBye:
		return nil
	}
	return s.fail(fmt.Errorf("unknown frame %q", f.T))
}

func (s *server) hello(h *hello) error {
	if h == nil {
		return s.fail(errors.New("hello without a configuration"))
	}
	if s.w != nil {
		return s.fail(errors.New("a second hello"))
	}
	if h.Version != s.o.Version {
		msg := fmt.Sprintf("this worker is osctl %s; the run's configuration is from osctl %s", s.o.Version, h.Version)
		_ = s.out.send(&frame{T: tError, Code: codeVersion, Error: msg, Ready: &ready{Version: s.o.Version}}, true)
		return fmt.Errorf("%w: %s", ErrVersion, msg)
	}
	cfg, err := h.Config.config()
	if err != nil {
		return s.fail(err)
	}
	w, err := pstress.NewSender(cfg, h.Shard, pstress.SenderDeps{Now: s.now})
	if err != nil {
		return s.fail(err)
	}
	s.w, s.index, s.keep = w, h.Shard.Index, h.Records
	host, _ := os.Hostname()
	return s.out.send(&frame{T: tReady, Ready: &ready{Version: s.o.Version, PID: os.Getpid(), Host: host, Now: time.Now()}}, true)
}

// record sends one record, with this worker's index.
func (s *server) record(r *history.Record) {
	idx := s.index
	r.Worker = &idx
	_ = s.out.send(&frame{T: tRec, Rec: r}, false)
}

// sending sends the record of a load request about to go out, written through to stdout before
// the request is sent: a worker killed (SIGKILL, the OOM killer, its pod deleted) right after
// sending a request has told the coordinator of it, whose history then holds it as ambiguous. A
// buffered frame died with the worker while the target applied the request: the judge saw a zip
// that no request of the history explained, and called it torn (seen on a real node).
func (s *server) sending(r *history.Record) {
	idx := s.index
	r.Worker = &idx
	_ = s.out.send(&frame{T: tSent, Rec: r}, true)
}

// load arms the load, waits for go (the barrier: every worker starts at once), runs it with
// progress every ProgressEvery, and answers how it went.
func (s *server) load(ctx context.Context, st *pstress.Setup) error {
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	s.loadMu.Lock()
	s.stopFn, s.goCh = stop, make(chan struct{})
	goCh := s.goCh
	if s.stopped {
		stop()
	}
	s.loadMu.Unlock()
	if err := s.out.send(&frame{T: tArmed}, true); err != nil {
		return err
	}
	select {
	case <-goCh:
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	var done atomic.Int64
	var w sync.WaitGroup
	tick := time.NewTicker(s.o.ProgressEvery)
	finished := make(chan struct{})
	var lastSent int64
	sendProgress := func() {
		n := done.Load()
		if n == lastSent {
			return
		}
		_ = s.out.send(&frame{T: tProgress, N: n - lastSent}, true)
		lastSent = n
	}
	w.Add(1)
	go func() {
		defer w.Done()
		defer tick.Stop()
		for {
			select {
			case <-finished:
				sendProgress()
				return
			case <-tick.C:
				sendProgress()
			}
		}
	}()
	obs := pstress.LoadObserver{
		Done:  func(n int64) { done.Add(n) },
		Phase: func(p, line string) { _ = s.out.send(&frame{T: tPhase, Phase: p, Line: line}, true) },
	}
	var rec profile.Recorder
	if s.keep {
		rec = s.record
	}
	if s.keep && history.KindOf(s.w.Profile()).Records {
		obs.Sending = s.sending // a request in flight when this worker dies is judged ambiguous
	}
	l, err := s.w.Load(lctx, st, rec, obs)
	close(finished)
	w.Wait()
	if err != nil {
		return s.fail(err)
	}
	snap, err := l.Stats.Snapshot()
	if err != nil {
		return s.fail(err)
	}
	ld := &loaded{Stats: snap, Payload: l.Payload, Notices: l.Notices}
	ld.CPU, ld.MaxRSS = usage()
	return s.out.send(&frame{T: tLoaded, Loaded: ld}, true)
}

// writer writes frames to a worker's stdout: records are buffered and flushed every 50ms, answers
// at once. The first write error is kept.
type writer struct {
	mu    sync.Mutex
	bw    *bufio.Writer
	err   error
	onErr func(error)
	dirty bool
	quit  chan struct{}
	done  chan struct{}
}

func newWriter(out io.Writer, onErr func(error)) *writer {
	w := &writer{bw: bufio.NewWriterSize(out, 256<<10), onErr: onErr, quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-w.quit:
				return
			case <-t.C:
				w.mu.Lock()
				if w.dirty && w.err == nil {
					w.setErr(w.bw.Flush())
					w.dirty = false
				}
				w.mu.Unlock()
			}
		}
	}()
	return w
}

func (w *writer) send(f *frame, flush bool) error {
	b, err := encodeFrame(f)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	_, err = w.bw.Write(b)
	if w.setErr(err); w.err == nil {
		w.dirty = true
		if flush {
			w.setErr(w.bw.Flush())
			w.dirty = false
		}
	}
	return w.err
}

// setErr keeps the first write error and says so once (with w.mu held).
func (w *writer) setErr(err error) {
	if err != nil && w.err == nil {
		w.err = err
		if w.onErr != nil {
			go w.onErr(err)
		}
	}
}

func (w *writer) flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.setErr(w.bw.Flush())
	}
	return w.err
}

func (w *writer) stop() {
	close(w.quit)
	<-w.done
	_ = w.flush()
}
