package workers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// Proc is one worker's process (an exec in its pod): its stdin and stdout, and how it ended.
type Proc interface {
	Stdin() io.Writer
	Stdout() io.Reader
	// Done is closed when the process has ended; Err then says how, Stderr what it wrote last.
	Done() <-chan struct{}
	Err() error
	Stderr() string
	// Close ends the process and its streams.
	Close()
}

// PingEvery is how often the coordinator tells each worker it is still there.
const PingEvery = 5 * time.Second

// conn is the coordinator's end of one worker.
type conn struct {
	index int
	pod   string
	proc  Proc
	now   func() time.Time
	// whyLost says what became of the worker's pod (nil: nothing to ask).
	whyLost func() string

	wmu     sync.Mutex // stdin
	replies chan *frame
	lost    chan struct{}
	once    sync.Once
	lostErr error
	lostAt  time.Time
	whyOnce sync.Once
	whyText string
	// unstopped: lost with no exit status while its pod is still there, so its process may go on
	// sending requests that no history holds (set by explain).
	unstopped bool
	quit      chan struct{} // stops the pings

	mu      sync.Mutex
	ready   *ready
	rec     profile.Recorder
	done    func(int64)
	phase   func(phase, line string)
	pending map[int64]*history.Record // load requests sent and not answered yet
	replay  *attack.Replayer          // the answered load requests folded in, for a lost worker's figures (lost.go)
	doneN   int64                     // load requests ended, as the worker's progress said
}

func newConn(index int, pod string, p Proc, now func() time.Time) *conn {
	c := &conn{index: index, pod: pod, proc: p, now: now, replies: make(chan *frame, 4), lost: make(chan struct{}), quit: make(chan struct{}),
		pending: map[int64]*history.Record{}, replay: attack.NewReplayer()}
	go c.read()
	go c.pings()
	return c
}

// name is how messages name the worker.
func (c *conn) name() string {
	if c.pod == "" {
		return fmt.Sprintf("worker %d", c.index)
	}
	return fmt.Sprintf("worker %d (pod %s)", c.index, c.pod)
}

func (c *conn) isLost() bool {
	select {
	case <-c.lost:
		return true
	default:
		return false
	}
}

// lose marks the worker lost, with why.
func (c *conn) lose(err error) {
	c.once.Do(func() {
		c.lostErr, c.lostAt = err, c.now()
		close(c.lost)
	})
}

// why says how a lost worker ended: its stream's error, its exit, the last of its stderr, what
// became of its pod. It is worked out once.
func (c *conn) why() string {
	c.whyOnce.Do(func() { c.whyText = c.explain() })
	return c.whyText
}

func (c *conn) explain() string {
	<-c.lost
	msg := c.lostErr.Error()
	ended := false
	select {
	case <-c.proc.Done():
		ended = true
	case <-time.After(2 * time.Second):
	}
	err := c.proc.Err()
	if err != nil && !strings.Contains(msg, err.Error()) {
		msg += ": " + err.Error()
	}
	if s := lastLine(c.proc.Stderr()); s != "" {
		msg += "; it said: " + s
	}
	pod := ""
	if c.whyLost != nil {
		pod = c.whyLost()
	}
	c.unstopped = err == nil && pod == "" && c.pod != ""
	switch {
	case pod != "":
		msg += "; " + pod
	case ended && err == nil && c.pod != "":
		msg += noStatusHint
	default:
		msg += killedHint(msg)
	}
	return msg
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

func (c *conn) send(f *frame) error {
	b, err := encodeFrame(f)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.isLost() {
		return c.lostErr
	}
	if _, err := c.proc.Stdin().Write(b); err != nil {
		c.lose(fmt.Errorf("writing to it: %v", err))
		return c.lostErr
	}
	return nil
}

func (c *conn) pings() {
	t := time.NewTicker(PingEvery)
	defer t.Stop()
	for {
		select {
		case <-c.quit:
			return
		case <-c.lost:
			return
		case <-t.C:
			_ = c.send(&frame{T: tPing})
		}
	}
}

// read handles the worker's frames until its stdout ends: records, requests sent, progress and
// phases as they come; answers go to replies.
func (c *conn) read() {
	err := readFrames(c.proc.Stdout(), func(f *frame) bool {
		switch f.T {
		case tRec, tSent:
			if f.Rec != nil {
				c.onRecord(f.T, f.Rec)
			}
		case tProgress:
			c.mu.Lock()
			c.doneN += f.N
			done := c.done
			c.mu.Unlock()
			if done != nil {
				done(f.N)
			}
		case tPhase:
			c.mu.Lock()
			ph := c.phase
			c.mu.Unlock()
			if ph != nil {
				ph(f.Phase, f.Line)
			}
		default:
			select {
			case c.replies <- f:
			case <-c.lost:
				return false
			}
		}
		return true
	})
	var bad *notAFrame
	switch {
	case err == nil:
		return // lost already
	case errors.As(err, &bad):
		err = fmt.Errorf("it wrote something that is not a frame (%q): is the image's osctl the right one?", lastLine(bad.line))
	case errors.Is(err, io.EOF):
		err = errors.New("its output ended")
	}
	c.lose(err)
}

func (c *conn) onRecord(t string, r *history.Record) {
	idx := c.index
	r.Worker = &idx // every record names the worker that sent it
	load := r.Kind == history.KindRequest && !r.Setup
	c.mu.Lock()
	if t == tSent {
		if load {
			c.pending[r.Seq] = r
		}
		c.mu.Unlock()
		return
	}
	if load {
		delete(c.pending, r.Seq)
		c.addLoad(r)
	}
	rec := c.rec
	c.mu.Unlock()
	if rec != nil {
		rec(r)
	}
}

// observe routes the worker's records, progress and phases.
func (c *conn) observe(rec profile.Recorder, done func(int64), phase func(string, string)) {
	c.mu.Lock()
	c.rec, c.done, c.phase = rec, done, phase
	c.mu.Unlock()
}

// frameError is a worker's error frame.
type frameError struct {
	f *frame
}

func (e *frameError) Error() string { return e.f.Error }

// call sends f (unless nil) and waits for an answer of type want, an error frame, the worker's
// loss, or ctx's end.
func (c *conn) call(ctx context.Context, f *frame, want string) (*frame, error) {
	if f != nil {
		if err := c.send(f); err != nil {
			return nil, fmt.Errorf("%s: %s", c.name(), c.why())
		}
	}
	for {
		select {
		case r := <-c.replies:
			switch r.T {
			case want:
				return r, nil
			case tError:
				return nil, &frameError{f: r}
			}
			// an answer to an earlier call that was given up on: skip it
		case <-c.lost:
			return nil, fmt.Errorf("%s: %s", c.name(), c.why())
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// unanswered turns the load requests the worker sent and never answered into ambiguous records
// (it was lost with them in flight), records them, and returns how many there were.
func (c *conn) unanswered() int {
	c.mu.Lock()
	recs := make([]*history.Record, 0, len(c.pending))
	for _, r := range c.pending {
		recs = append(recs, r)
	}
	c.pending = map[int64]*history.Record{}
	rec := c.rec
	c.mu.Unlock()
	for _, r := range recs {
		r.End, r.Outcome, r.Timeout = c.lostAt, history.Ambiguous, false
		if r.Start.IsZero() || r.Start.After(r.End) {
			r.Start = r.End
		}
		r.Error = fmt.Sprintf("%s was lost before this request's answer", c.name())
		c.mu.Lock()
		c.addLoad(r)
		c.mu.Unlock()
		if rec != nil {
			rec(r)
		}
	}
	return len(recs)
}

// stop ends the conn: no more pings, the process closed.
func (c *conn) close() {
	select {
	case <-c.quit:
	default:
		close(c.quit)
	}
	c.proc.Close()
}
