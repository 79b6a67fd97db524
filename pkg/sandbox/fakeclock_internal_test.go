package sandbox

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

// FakeClock is a clock that moves only when Advance moves it. Its channels are unbuffered and
// Advance sends each firing due in order, returning once every one was received (or its timer
// stopped): for a ticker, the receipt of a tick also means that the work done on the tick before
// it is over. Unlike a time.Ticker, a ticker is sent every tick it is due, none dropped.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	seq    int
	timers []*fakeTimer // the pending timers and tickers
}

type fakeTimer struct {
	c       chan time.Time
	at      time.Time
	period  time.Duration // 0 for a timer
	seq     int           // creation order, for timers due at the same time
	clk     *FakeClock
	once    sync.Once
	stopped chan struct{}
}

// NewFakeClock returns a fake clock at start.
func NewFakeClock(start time.Time) *FakeClock { return &FakeClock{now: start} }

// Now returns the clock's time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// NewTimer returns a timer that fires once the clock reached d from now.
func (c *FakeClock) NewTimer(d time.Duration) clockTimer { return c.add(d, 0) }

// NewTicker returns a ticker that fires each time the clock passes another d.
func (c *FakeClock) NewTicker(d time.Duration) clockTimer { return c.add(d, d) }

func (c *FakeClock) add(d, period time.Duration) *fakeTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &fakeTimer{c: make(chan time.Time), at: c.now.Add(d), period: period, seq: c.seq, clk: c, stopped: make(chan struct{})}
	c.timers = append(c.timers, t)
	return t
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() {
	t.clk.mu.Lock()
	t.clk.timers = slices.DeleteFunc(t.clk.timers, func(o *fakeTimer) bool { return o == t })
	t.clk.mu.Unlock()
	t.once.Do(func() { close(t.stopped) })
}

// Timers returns how many timers and tickers are pending.
func (c *FakeClock) Timers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// WaitTimers waits (a generous bound, not a timing check) until exactly n timers and tickers are
// pending: the goroutines that are to wait on the clock do.
func (c *FakeClock) WaitTimers(t testing.TB, n int) {
	t.Helper()
	testenv.Eventually(t, 10*time.Second, fmt.Sprintf("%d timers on the fake clock", n), func() bool { return c.Timers() == n },
		func() string { return fmt.Sprintf("%d pending", c.Timers()) })
}

// Advance moves the clock d on, firing in turn each timer and tick due by then.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		t := c.due(end)
		if t == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		at := t.at
		c.now = at
		if t.period > 0 {
			t.at = at.Add(t.period)
		} else {
			c.timers = slices.DeleteFunc(c.timers, func(o *fakeTimer) bool { return o == t })
		}
		c.mu.Unlock()
		select {
		case t.c <- at:
		case <-t.stopped:
		}
	}
}

// due returns the first timer due by end (under c.mu), nil when there is none.
func (c *FakeClock) due(end time.Time) *fakeTimer {
	var first *fakeTimer
	for _, t := range c.timers {
		if t.at.After(end) {
			continue
		}
		if first == nil || t.at.Before(first.at) || t.at.Equal(first.at) && t.seq < first.seq {
			first = t
		}
	}
	return first
}

// TestFakeClock: timers fire in the order they are due and not before, a ticker every period,
// and a stopped timer never.
func TestFakeClock(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := NewFakeClock(t0)
	tick, late, early, stopped := c.NewTicker(3*time.Second), c.NewTimer(5*time.Second), c.NewTimer(time.Second), c.NewTimer(2*time.Second)
	stopped.Stop()
	var got []string
	done := make(chan struct{})
	go func() { // one receiver: what it notes is in the order Advance sent
		defer close(done)
		for range 4 {
			var name string
			var at time.Time
			select {
			case at = <-tick.C():
				name = "tick"
			case at = <-late.C():
				name = "late"
			case at = <-early.C():
				name = "early"
			case at = <-stopped.C():
				name = "stopped"
			}
			got = append(got, fmt.Sprintf("%s@%v", name, at.Sub(t0)))
		}
	}()
	c.Advance(4 * time.Second)
	if c.Now() != t0.Add(4*time.Second) || c.Timers() != 2 {
		t.Fatalf("after 4s: now %v, %d timers pending, want +4s and 2 (the ticker and the late timer)", c.Now().Sub(t0), c.Timers())
	}
	c.Advance(2 * time.Second)
	<-done
	tick.Stop()
	if want := "[early@1s tick@3s late@5s tick@6s]"; fmt.Sprint(got) != want {
		t.Fatalf("fired %v, want %s", got, want)
	}
	if c.Timers() != 0 {
		t.Fatalf("%d timers pending after the last fired and the ticker stopped", c.Timers())
	}
}
