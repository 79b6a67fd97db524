package attack

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

type countingOp struct{ url string }

func (o countingOp) Request(ctx context.Context) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodGet, o.url, nil)
}
func (o countingOp) Done(r *Result, _ *http.Response) Outcome { return Classify(r) }

func limited(n int64, url string) Source {
	var i atomic.Int64
	return SourceFunc(func(context.Context) (Op, bool) {
		if i.Add(1) > n {
			return nil, false
		}
		return countingOp{url}, true
	})
}

// TestConcurrencyHeld checks that C requests are really in flight at once: the server holds
// every request until C of them have arrived.
func TestConcurrencyHeld(t *testing.T) {
	forEachEngine(t, testConcurrencyHeld)
}

func testConcurrencyHeld(t *testing.T, eventLoop bool) {
	const c = 300
	var mu sync.Mutex
	waiting := 0
	release := make(chan struct{})
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		waiting++
		if waiting == c {
			close(release)
		}
		mu.Unlock()
		select {
		case <-release:
		case <-time.After(20 * time.Second):
			w.WriteHeader(http.StatusGatewayTimeout)
			return
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	st := Run(context.Background(), NewConns(c, 30*time.Second), limited(3*c, srv.URL), Options{Concurrency: c, EventLoop: eventLoop})
	cnt := st.Counts()
	if cnt.Total != 3*c || cnt.Status2xx != 3*c || cnt.Acknowledged != 3*c {
		t.Fatalf("counts %+v", cnt)
	}
	if n := conns.Load(); n > c+c/20 {
		t.Errorf("%d connections for concurrency %d: connections were not reused", n, c)
	}
	if n := conns.Load(); n != c {
		t.Errorf("%d connections for %d workers: want one each", n, c)
	}
	if p := st.PeakInFlight(); p != c {
		t.Errorf("peak in flight %d, want %d", p, c)
	}
	if h := st.Histogram(); h.TotalCount() != 3*c {
		t.Errorf("histogram has %d values", h.TotalCount())
	}
}

func TestClassesAndErrorRateStop(t *testing.T) {
	forEachEngine(t, testClassesAndErrorRateStop)
}

func testClassesAndErrorRateStop(t *testing.T, eventLoop bool) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) % 4 {
		case 0:
			w.WriteHeader(503)
		case 1:
			w.WriteHeader(500)
		case 2:
			w.WriteHeader(404)
		default:
			w.WriteHeader(201)
		}
	}))
	defer srv.Close()
	st := Run(context.Background(), NewConns(4, 10*time.Second), limited(400, srv.URL), Options{Concurrency: 4, EventLoop: eventLoop})
	c := st.Counts()
	if c.Total != 400 || c.Status503 != 100 || c.Status5xx != 100 || c.Status4xx != 100 || c.Status2xx != 100 {
		t.Fatalf("counts %+v", c)
	}
	if c.Acknowledged != 100 || c.Rejected != 200 || c.Ambiguous != 100 {
		t.Fatalf("outcomes %+v", c)
	}
	if st.Stopped != "" {
		t.Fatalf("stopped %q", st.Stopped)
	}
	st = Run(context.Background(), NewConns(4, 10*time.Second), limited(100000, srv.URL), Options{Concurrency: 4, MaxErrorRate: 0.3, MinForErrorRate: 50, EventLoop: eventLoop})
	if st.Stopped != StopErrorRate || st.Counts().Total >= 100000 {
		t.Fatalf("not stopped by error rate: %q %+v", st.Stopped, st.Counts())
	}
}

func TestOpenLoopDurationAndInterrupt(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	st := Run(context.Background(), NewConns(10, 10*time.Second), limited(1<<40, srv.URL), Options{Concurrency: 10, Rate: 200, Duration: 300 * time.Millisecond})
	if st.Stopped != StopDuration {
		t.Fatalf("stopped %q", st.Stopped)
	}
	// At 200/s for 0.3 s, 60 requests are due (fewer if the machine stalls): never more, never
	// the unbounded source.
	if c := st.Counts().Total; c < 1 || c > 60 {
		t.Fatalf("%d requests", c)
	}
}

// TestClosedLoopDurationAndInterrupt: a closed loop stops at its duration, and at Ctrl-C with
// the requests in flight cut and counted.
func TestClosedLoopDurationAndInterrupt(t *testing.T) {
	forEachEngine(t, func(t *testing.T, eventLoop bool) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		defer srv.Close()
		st := Run(context.Background(), NewConns(10, 10*time.Second), limited(1<<40, srv.URL), Options{Concurrency: 10, Duration: 200 * time.Millisecond, EventLoop: eventLoop})
		if c := st.Counts(); st.Stopped != StopDuration || c.Total == 0 || c.Errors != 0 {
			t.Fatalf("stopped %q, %+v", st.Stopped, c)
		}
		// A server that holds every request: Ctrl-C cuts the 10 in flight.
		var arrived atomic.Int64
		release := make(chan struct{})
		defer close(release)
		hold := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			arrived.Add(1)
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
		defer hold.Close()
		ctx, cancel := context.WithCancel(context.Background())
		arrivedErr := make(chan error, 1)
		go func() {
			arrivedErr <- testenv.Poll(time.Minute, "10 requests in flight", func() bool { return arrived.Load() >= 10 })
			cancel()
		}()
		st = Run(ctx, NewConns(10, time.Minute), limited(1<<40, hold.URL), Options{Concurrency: 10, EventLoop: eventLoop})
		if err := <-arrivedErr; err != nil {
			t.Fatal(err)
		}
		if c := st.Counts(); st.Stopped != StopInterrupted || c.Total != 10 || c.Errors != 10 || c.Ambiguous != 10 {
			t.Fatalf("stopped %q, %+v", st.Stopped, c)
		}
	})
}

func TestRefusedIsRejected(t *testing.T) {
	forEachEngine(t, func(t *testing.T, eventLoop bool) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		url := srv.URL
		srv.Close()
		st := Run(context.Background(), NewConns(2, 5*time.Second), limited(5, url), Options{Concurrency: 2, EventLoop: eventLoop})
		if c := st.Counts(); c.Errors != 5 || c.Rejected != 5 {
			t.Fatalf("counts %+v", c)
		}
	})
}

func TestRaiseFileLimit(t *testing.T) {
	got, err := RaiseFileLimit(64)
	if err != nil || got < 64 {
		t.Fatalf("%d %v", got, err)
	}
}

// TestStdClientToo: the attacker also runs on a shared net/http Transport.
func TestStdClientToo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	st := Run(context.Background(), StdClient{NewClient(8, 5*time.Second)}, limited(100, srv.URL), Options{Concurrency: 8})
	if c := st.Counts(); c.Acknowledged != 100 {
		t.Fatalf("%+v", c)
	}
}

// TestTimeoutIsAmbiguous: a request the server never answers times out, counts apart, and is
// ambiguous (it was sent).
func TestTimeoutIsAmbiguous(t *testing.T) {
	forEachEngine(t, testTimeoutIsAmbiguous)
}

func testTimeoutIsAmbiguous(t *testing.T, eventLoop bool) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	st := Run(context.Background(), NewConns(3, 200*time.Millisecond), limited(3, srv.URL), Options{Concurrency: 3, EventLoop: eventLoop})
	if c := st.Counts(); c.Timeouts != 3 || c.Ambiguous != 3 {
		t.Fatalf("%+v", c)
	}
}

// TestServerClosingConnections: a server that closes every connection after one answer still
// gets every request, each on a fresh connection.
func TestServerClosingConnections(t *testing.T) {
	forEachEngine(t, testServerClosingConnections)
}

func testServerClosingConnections(t *testing.T, eventLoop bool) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
	}))
	defer srv.Close()
	st := Run(context.Background(), NewConns(4, 5*time.Second), limited(40, srv.URL), Options{Concurrency: 4, EventLoop: eventLoop})
	if c := st.Counts(); c.Acknowledged != 40 {
		t.Fatalf("%+v", c)
	}
}
