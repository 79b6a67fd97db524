package workers

import (
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"
)

// barrier is released once n distinct members have arrived; a member that waits longer than
// giveUp goes on alone and the barrier records that it was not reached.
type barrier struct {
	mu      sync.Mutex
	n       int
	in      map[int]bool
	open    chan struct{}
	timeout bool
}

func newBarrier(n int) *barrier { return &barrier{n: n, in: map[int]bool{}, open: make(chan struct{})} }

func (b *barrier) arrive(i int, giveUp time.Duration) {
	b.mu.Lock()
	if !b.in[i] {
		b.in[i] = true
		if len(b.in) == b.n {
			close(b.open)
		}
	}
	b.mu.Unlock()
	select {
	case <-b.open:
	case <-time.After(giveUp):
		b.mu.Lock()
		b.timeout = true
		b.mu.Unlock()
	}
}

func (b *barrier) reached() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return !b.timeout && len(b.in) == b.n
}

// slowProc is a worker process (Proc is the exec stream's interface: pure logic here) whose bye
// and close each take as long as every other worker's: writing to it blocks until every worker
// is being written to, and closing it until every worker is being closed. Only closes that run
// at once get through both without giving up.
type slowProc struct {
	i           int
	bye, closed *barrier
	giveUp      time.Duration
	stdout      *io.PipeReader
	w           *io.PipeWriter
	done        chan struct{}
	once        sync.Once
}

func (p *slowProc) Write(b []byte) (int, error) {
	// One write is one frame: only the bye waits at the barrier (the conn's pings, every
	// PingEvery, would otherwise let a bye written alone through).
	var f frame
	if err := json.Unmarshal(b, &f); err != nil || f.T != tBye {
		return len(b), nil
	}
	p.bye.arrive(p.i, p.giveUp)
	p.once.Do(func() { close(p.done) }) // the worker ends after its bye
	return len(b), nil
}
func (p *slowProc) Stdin() io.Writer      { return p }
func (p *slowProc) Stdout() io.Reader     { return p.stdout }
func (p *slowProc) Done() <-chan struct{} { return p.done }
func (p *slowProc) Err() error            { return nil }
func (p *slowProc) Stderr() string        { return "" }
func (p *slowProc) Close() {
	p.closed.arrive(p.i, p.giveUp)
	_ = p.w.Close()
}

// TestFleetCloseEndsWorkersInParallel: N workers whose bye and close each block until all N are
// at the same step. Closed one after another, the first would wait for the others forever (here
// it gives up after 10 s and the test fails); closed in parallel, Close takes one worker's time.
// The test's own deadline fails it rather than hang.
func TestFleetCloseEndsWorkersInParallel(t *testing.T) {
	const n = 4
	bye, closed := newBarrier(n), newBarrier(n)
	f := &Fleet{}
	for i := range n {
		r, w := io.Pipe()
		f.conns = append(f.conns, newConn(i, "", &slowProc{i: i, bye: bye, closed: closed, giveUp: 10 * time.Second, stdout: r, w: w, done: make(chan struct{})}, time.Now))
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		f.Close()
	}()
	select {
	case <-ended:
	case <-time.After(2 * time.Minute):
		t.Fatal("Close did not return within 2 minutes")
	}
	if !bye.reached() {
		t.Error("the byes were not written at once: a worker's bye waited for another's")
	}
	if !closed.reached() {
		t.Error("the workers were not closed at once: a worker's close waited for another's")
	}
}
