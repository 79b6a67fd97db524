package sandbox

import "time"

// clock is the job dispatcher's time: the stamps and run deadlines of its jobs, its tick and
// watchdog, and the pauses of its submit threads. Servers run on realClock; tests drive a fake
// one.
type clock interface {
	Now() time.Time
	// NewTimer returns a timer that fires once, d from now.
	NewTimer(d time.Duration) clockTimer
	// NewTicker returns a ticker that fires every d.
	NewTicker(d time.Duration) clockTimer
}

// clockTimer is a timer or a ticker of a clock.
type clockTimer interface {
	// C is the channel the firings are sent on.
	C() <-chan time.Time
	// Stop ends it: nothing more is sent.
	Stop()
}

// realClock is the time package's clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) NewTimer(d time.Duration) clockTimer { return realTimer{time.NewTimer(d)} }

func (realClock) NewTicker(d time.Duration) clockTimer { return realTicker{time.NewTicker(d)} }

type realTimer struct{ t *time.Timer }

func (t realTimer) C() <-chan time.Time { return t.t.C }
func (t realTimer) Stop()               { t.t.Stop() }

type realTicker struct{ t *time.Ticker }

func (t realTicker) C() <-chan time.Time { return t.t.C }
func (t realTicker) Stop()               { t.t.Stop() }
