package workers

import (
	"io"
	"sync"
	"testing"
	"time"
)

// barrierProc is a worker process (Proc is the exec stream's interface: pure logic here) that
// ends only once every process of its group has been asked whether it ended, and logs when it
// is closed.
type barrierProc struct {
	g      *barrierGroup
	i      int
	stdout *io.PipeReader
	w      *io.PipeWriter
}

type barrierGroup struct {
	mu      sync.Mutex
	asked   int
	n       int
	ended   chan struct{}
	events  []string
	askedBy map[int]bool
}

func (p *barrierProc) Stdin() io.Writer  { return io.Discard }
func (p *barrierProc) Stdout() io.Reader { return p.stdout }
func (p *barrierProc) Err() error        { return nil }
func (p *barrierProc) Stderr() string    { return "" }
func (p *barrierProc) Done() <-chan struct{} {
	g := p.g
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.askedBy[p.i] {
		g.askedBy[p.i] = true
		if g.asked++; g.asked == g.n {
			g.events = append(g.events, "all asked")
			close(g.ended)
		}
	}
	return g.ended
}
func (p *barrierProc) Close() {
	p.g.mu.Lock()
	p.g.events = append(p.g.events, "close")
	p.g.mu.Unlock()
	_ = p.w.Close()
}

// TestFleetCloseWaitsForEveryWorkerAtOnce: Close waits for all workers together, so no worker is
// closed before every one of them was waited for (one after another, the first would be closed
// after its own wait ran out, before the others were asked).
func TestFleetCloseWaitsForEveryWorkerAtOnce(t *testing.T) {
	const n = 3
	g := &barrierGroup{n: n, ended: make(chan struct{}), askedBy: map[int]bool{}}
	f := &Fleet{}
	for i := range n {
		r, w := io.Pipe()
		f.conns = append(f.conns, newConn(i, "", &barrierProc{g: g, i: i, stdout: r, w: w}, time.Now))
	}
	f.Close()
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.events) != n+1 || g.events[0] != "all asked" {
		t.Fatalf("events %q: want every worker waited for before the first is closed", g.events)
	}
}
