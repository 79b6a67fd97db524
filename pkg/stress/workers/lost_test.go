package workers

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
)

// TestLostSnapshotFoldsTheRecords: a lost worker's figures are those of the load requests it
// ended (folded as they came) and of those it was lost with in flight (ambiguous); its setup
// requests are not load.
func TestLostSnapshotFoldsTheRecords(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := &conn{index: 1, pending: map[int64]*history.Record{}, replay: attack.NewReplayer(), lost: make(chan struct{}),
		now: func() time.Time { return t0.Add(time.Hour) }}
	var got []*history.Record
	c.observe(func(r *history.Record) { got = append(got, r) }, nil, nil)
	c.onRecord(tRec, &history.Record{Kind: history.KindRequest, Seq: 0, Setup: true, Outcome: history.Acknowledged, Status: 201, Start: t0, End: t0})
	for i := int64(1); i <= 300; i++ {
		out, status := history.Acknowledged, 200
		if i%3 == 0 {
			out, status = history.Rejected, 503
		}
		s := t0.Add(time.Duration(i) * time.Millisecond)
		c.onRecord(tRec, &history.Record{Kind: history.KindRequest, Seq: i, Outcome: out, Status: status, Start: s, End: s.Add(5 * time.Millisecond)})
	}
	c.onRecord(tSent, &history.Record{Kind: history.KindRequest, Seq: 301, Start: t0.Add(time.Second)})
	c.lose(errLost{})
	if n := c.unanswered(); n != 1 {
		t.Fatalf("%d requests in flight, want 1", n)
	}
	s := c.lostSnapshot(true)
	if s.Counts.Total != 301 || s.Counts.Acknowledged != 200 || s.Counts.Rejected != 100 || s.Counts.Ambiguous != 1 {
		t.Fatalf("counts %+v: want the 301 load requests, 200 acknowledged, 100 rejected, 1 ambiguous", s.Counts)
	}
	if !s.Began.Equal(t0.Add(time.Millisecond)) || !s.Ended.Equal(t0.Add(time.Hour)) {
		t.Fatalf("span %v-%v", s.Began, s.Ended)
	}
	if len(got) != 302 || *got[301].Worker != 1 || got[301].Outcome != history.Ambiguous {
		t.Fatalf("%d records passed on; the last %+v", len(got), got[len(got)-1])
	}
}

type errLost struct{}

func (errLost) Error() string { return "gone" }

// TestKilledHint: exit code 137 is explained as a SIGKILL, likely the OOM killer; others are not.
func TestKilledHint(t *testing.T) {
	if h := killedHint("its output ended: exec in pod ns/p: command terminated with exit code 137"); !strings.Contains(h, "OOM killer") {
		t.Errorf("exit 137: %q", h)
	}
	for _, m := range []string{"its output ended", "command terminated with exit code 1", "exit code 1370"} {
		if h := killedHint(m); h != "" {
			t.Errorf("%q: %q", m, h)
		}
	}
}

// endProc is a worker process whose output is a pipe the test ends (pure logic: Proc is the
// exec stream's interface).
type endProc struct {
	stdout *io.PipeReader
	w      *io.PipeWriter
	done   chan struct{}
	err    error
}

func newEndProc() *endProc {
	r, w := io.Pipe()
	return &endProc{stdout: r, w: w, done: make(chan struct{}), err: errors.New("command terminated with exit code 137")}
}
func (p *endProc) Stdin() io.Writer      { return io.Discard }
func (p *endProc) Stdout() io.Reader     { return p.stdout }
func (p *endProc) Done() <-chan struct{} { return p.done }
func (p *endProc) Err() error            { return p.err }
func (p *endProc) Stderr() string        { return "" }
func (p *endProc) Close()                { _ = p.w.Close() }

// TestLossReportedAtOnce: a worker lost during the load is logged when it is lost, with why, not
// when the load ends; the workers still there are not.
func TestLossReportedAtOnce(t *testing.T) {
	logs := make(chan string, 4)
	f := &Fleet{o: ConnectOptions{Log: func(l string) { logs <- l }}}
	procs := []*endProc{newEndProc(), newEndProc()}
	for i, p := range procs {
		f.conns = append(f.conns, newConn(i, fmt.Sprintf("pod-%d", i), p, time.Now))
	}
	done := make(chan struct{})
	f.reportLosses(done)
	close(procs[1].done)
	procs[1].Close() // its stream ends
	line := <-logs
	for _, want := range []string{"worker 1 (pod pod-1) was lost during the load: its output ended", "exit code 137", "OOM killer", "the other workers go on"} {
		if !strings.Contains(line, want) {
			t.Errorf("log %q lacks %q", line, want)
		}
	}
	close(done)
	close(procs[0].done)
	procs[0].Close()
	for _, c := range f.conns {
		c.close()
	}
	select {
	case l := <-logs:
		t.Errorf("logged after the load: %q", l)
	default:
	}
}

// TestLossWithoutExitStatus: a worker whose exec stream ended with no exit status, its pod still
// there (whyLost says nothing), is said to have lost its node's runtime or kubelet, not SIGKILL.
func TestLossWithoutExitStatus(t *testing.T) {
	p := newEndProc()
	p.err = nil
	c := newConn(0, "pod-0", p, time.Now)
	c.whyLost = func() string { return "" }
	close(p.done)
	p.Close()
	why := c.why()
	if !strings.Contains(why, "its output ended") || !strings.Contains(why, "container runtime or kubelet") || strings.Contains(why, "OOM") {
		t.Fatalf("why = %q", why)
	}
	if !c.unstopped {
		t.Error("a worker lost with no exit status, its pod there, is not marked unstopped")
	}
	c.close()

	// Killed, with its exit status: its process is known to have ended.
	k := newEndProc()
	ck := newConn(1, "pod-1", k, time.Now)
	ck.whyLost = func() string { return "" }
	close(k.done)
	k.Close()
	if why := ck.why(); ck.unstopped {
		t.Errorf("a worker lost with exit code 137 is marked unstopped (%s)", why)
	}
	ck.close()
}
