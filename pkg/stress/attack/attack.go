// Package attack sends HTTP requests at a fixed concurrency (closed loop) or a fixed rate (open
// loop) and measures them. It knows nothing about what the requests mean: a Source hands it
// operations one at a time, as they are sent, and each operation builds its request and judges
// its response.
package attack

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Outcome is what one request did, per the stress contract: applied, not applied, or unknown.
type Outcome int

// Outcomes.
const (
	Acknowledged Outcome = iota
	Rejected
	Ambiguous
)

// String returns the history name of the outcome.
func (o Outcome) String() string {
	switch o {
	case Acknowledged:
		return "acknowledged"
	case Rejected:
		return "rejected"
	default:
		return "ambiguous"
	}
}

// ParseOutcome is the Outcome that String names: "acknowledged", "rejected", else Ambiguous.
func ParseOutcome(s string) Outcome {
	switch s {
	case "acknowledged":
		return Acknowledged
	case "rejected":
		return Rejected
	}
	return Ambiguous
}

// Result is the measurement of one request, handed to the operation's Done.
type Result struct {
	Seq      uint64
	Intended time.Time // when the request should have been sent (open loop); equals Start in closed loop
	Start    time.Time
	End      time.Time
	Status   int
	Err      error
	Timeout  bool
	Sent     bool // the request was written (an error after this makes the outcome ambiguous)
}

// Latency is the request's latency, measured from its intended send time so that a stalled
// sender does not hide the server's slowness (no coordinated omission).
func (r *Result) Latency() time.Duration { return r.End.Sub(r.Intended) }

// Op is one operation: it builds its request and judges its response.
type Op interface {
	// Request builds the HTTP request. An error skips the operation and counts it as failed.
	Request(ctx context.Context) (*http.Request, error)
	// Done receives the measurement and the response (nil on a transport error; the body is
	// drained and closed by the attacker afterwards) and returns the outcome.
	Done(r *Result, resp *http.Response) Outcome
}

// Source hands out operations one at a time; false means there are no more. It must be safe for
// concurrent use.
type Source interface {
	Next(ctx context.Context) (Op, bool)
}

// SourceFunc adapts a function to a Source.
type SourceFunc func(ctx context.Context) (Op, bool)

// Next calls f.
func (f SourceFunc) Next(ctx context.Context) (Op, bool) { return f(ctx) }

// Options tune one attack.
type Options struct {
	// Concurrency is how many requests are in flight at most (closed loop: exactly, while work
	// remains). Required.
	Concurrency int
	// Rate, when above zero, sends that many requests per second (open loop); Concurrency then
	// caps the requests in flight.
	Rate float64
	// Duration, when above zero, stops sending new requests after it; requests in flight finish.
	Duration time.Duration
	// MaxErrorRate stops sending once the fraction of failed requests (5xx, timeouts, transport
	// errors) passes it, after at least MinForErrorRate requests. Zero disables the check.
	MaxErrorRate    float64
	MinForErrorRate int
	// SampleEvery is how often the requests in flight are sampled for the timeline. The default is
	// 100ms.
	SampleEvery time.Duration
	// Now is the clock (a seam for tests). The default is time.Now.
	Now func() time.Time
	// OnDone, when set, is called after each request (progress bars).
	OnDone func()
	// EventLoop runs a closed loop on event loops (Linux, epoll) instead of a goroutine per
	// request: for plain http:// requests whose answers are judged by status and headers (the
	// operations get no body), see EventLoopOK. The client is then not used.
	EventLoop bool
	// Timeout bounds one request on the event loops. The default is the client's own when it is
	// a *Conns, else 30s.
	Timeout time.Duration
}

// EventLoopOK reports whether req can be sent by the event loops (Options.EventLoop): plain
// http://, a known body length of at most 1 MiB, and headers the attacker writes itself.
func EventLoopOK(req *http.Request) bool { return EventLoopSupported && eventLoopOK(req) }

// Run executes operations from src until it is exhausted, the duration passes, the error rate
// passes its bound, or ctx ends. It always returns the statistics of what it sent.
func Run(ctx context.Context, client Client, src Source, o Options) *Stats {
	if o.Concurrency < 1 {
		o.Concurrency = 1
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.SampleEvery <= 0 {
		o.SampleEvery = 100 * time.Millisecond
	}
	if c, ok := client.(*Conns); ok && o.Timeout <= 0 {
		o.Timeout = c.Timeout
	}
	if o.MinForErrorRate <= 0 {
		o.MinForErrorRate = 100
	}
	st := newStats(o.Now())
	sendCtx, stopSending := context.WithCancelCause(ctx)
	defer stopSending(nil)
	if o.Duration > 0 {
		var cancel context.CancelFunc
		sendCtx, cancel = context.WithTimeoutCause(sendCtx, o.Duration, errDuration)
		defer cancel()
	}
	a := &attacker{client: client, src: src, o: o, st: st, stop: stopSending, reqCtx: ctx}

	samplerDone := make(chan struct{})
	samplerStop := make(chan struct{})
	go a.sample(samplerStop, samplerDone)

	st.Engine = EngineGoroutines
	switch {
	case o.Rate > 0:
		a.openLoop(sendCtx)
	case o.EventLoop && EventLoopSupported && a.eventLoops(sendCtx) == nil:
		st.Engine = EngineEventLoop
	default:
		var wg sync.WaitGroup
		for w := 0; w < o.Concurrency; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				a.closedLoop(sendCtx, w)
			}(w)
		}
		wg.Wait()
	}
	close(samplerStop)
	<-samplerDone
	st.finish(o.Now())
	switch cause := context.Cause(sendCtx); {
	case ctx.Err() != nil:
		st.Stopped = StopInterrupted
	case errors.Is(cause, errErrorRate):
		st.Stopped = StopErrorRate
	case errors.Is(cause, errDuration):
		st.Stopped = StopDuration
	}
	return st
}

var (
	errDuration  = errors.New("duration reached")
	errErrorRate = errors.New("error rate passed {MaxErrorRate}")
)

type attacker struct {
	client Client
	src    Source
	o      Options
	st     *Stats
	stop   context.CancelCauseFunc
	reqCtx context.Context
	seq    atomic.Uint64
}

func (a *attacker) closedLoop(ctx context.Context, w int) {
	for ctx.Err() == nil {
		op, ok := a.src.Next(ctx)
		if !ok {
			return
		}
		now := a.o.Now()
		a.do(w, op, now)
	}
}

func (a *attacker) openLoop(ctx context.Context) {
	interval := time.Duration(float64(time.Second) / a.o.Rate)
	// Free slot numbers: a request in flight holds one (its connection), at most Concurrency.
	sem := make(chan int, a.o.Concurrency)
	for w := 0; w < a.o.Concurrency; w++ {
		sem <- w
	}
	var wg sync.WaitGroup
	begin := a.o.Now()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for i := 0; ; i++ {
		intended := begin.Add(time.Duration(i) * interval)
		if a.o.Duration > 0 && intended.Sub(begin) >= a.o.Duration {
			a.stop(errDuration) // due at or after the end: --rate R --duration D sends R*D requests
			break
		}
		if d := intended.Sub(a.o.Now()); d > 0 {
			timer.Reset(d)
			select {
			case <-ctx.Done():
				wg.Wait()
				return
			case <-timer.C:
			}
		}
		if ctx.Err() != nil {
			break
		}
		op, ok := a.src.Next(ctx)
		if !ok {
			break
		}
		var w int
		select {
		case w = <-sem:
		case <-ctx.Done():
			wg.Wait()
			return
		}
		wg.Add(1)
		go func() {
			defer func() { sem <- w; wg.Done() }()
			a.do(w, op, intended)
		}()
	}
	wg.Wait()
}

// do sends one request. Requests run on the caller's context (not the sending one) so that the
// end of --duration lets them finish, while Ctrl-C cuts them.
func (a *attacker) do(w int, op Op, intended time.Time) {
	r := Result{Seq: a.seq.Add(1), Intended: intended}
	req, err := op.Request(a.reqCtx)
	if err != nil {
		r.Start, r.End, r.Err = intended, a.o.Now(), err
		a.st.record(w, &r, op.Done(&r, nil))
		return
	}
	a.st.enter()
	r.Start = a.o.Now()
	resp, err := a.client.Do(w, req)
	if err != nil {
		r.End = a.o.Now()
		a.st.inflight.Add(-1)
		r.Err = err
		r.Sent = !notSent(err)
		r.Timeout = isTimeout(err)
		a.st.record(w, &r, op.Done(&r, nil))
		a.afterDone()
		return
	}
	r.Status = resp.StatusCode
	r.Sent = true
	out := op.Done(&r, resp)
	drain(resp)
	if r.End.IsZero() {
		r.End = a.o.Now()
	}
	a.st.inflight.Add(-1)
	a.st.record(w, &r, out)
	a.afterDone()
}

func (a *attacker) afterDone() {
	if a.o.OnDone != nil {
		a.o.OnDone()
	}
	if a.o.MaxErrorRate > 0 {
		done, failed := a.st.done.Load(), a.st.failed.Load()
		if done >= int64(a.o.MinForErrorRate) && float64(failed)/float64(done) > a.o.MaxErrorRate {
			a.stop(errErrorRate)
		}
	}
}

func (a *attacker) sample(stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(a.o.SampleEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			a.st.addSample(a.o.Now(), a.st.inflight.Load())
			return
		case <-t.C:
			a.st.addSample(a.o.Now(), a.st.inflight.Load())
		}
	}
}

func isTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// notSent reports whether err happened before the request could reach the server (dialing).
func notSent(err error) bool {
	var ns *NotSentError
	if errors.As(err, &ns) {
		return true
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// IsRefused reports whether err means nothing reached the server (connection refused).
func IsRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }
