package workers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	pstress "github.com/osctl/osctl/pkg/stress"
)

// pipeProc is a worker served in this process over pipes: the coordinator's end of the same
// framed protocol an exec carries. Its stdin is never closed while it runs, as through kwok's exec.
type pipeProc struct {
	inW  *io.PipeWriter
	outR *io.PipeReader
	done chan struct{}
	err  error
}

func servePipe(t *testing.T, version string, o ServeOptions) *pipeProc {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &pipeProc{inW: inW, outR: outR, done: make(chan struct{})}
	o.Version = version
	go func() {
		p.err = Serve(t.Context(), inR, outW, o)
		_ = outW.Close()
		_ = inR.Close()
		close(p.done)
	}()
	t.Cleanup(p.Close)
	return p
}

func (p *pipeProc) Stdin() io.Writer      { return p.inW }
func (p *pipeProc) Stdout() io.Reader     { return p.outR }
func (p *pipeProc) Done() <-chan struct{} { return p.done }
func (p *pipeProc) Stderr() string        { return "" }
func (p *pipeProc) Err() error {
	select {
	case <-p.done:
		return p.err
	default:
		return nil
	}
}
func (p *pipeProc) Close() {
	_ = p.inW.Close()
	<-p.done
}

func httpConfig(t *testing.T, target string, requests, concurrency int) pstress.Config {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	return pstress.Config{Profile: pstress.ProfileHTTP, Targets: []*url.URL{u}, Requests: requests, Concurrency: concurrency, Version: "v1.2.3"}.WithDefaults()
}

// TestConnectRefusesAnotherVersion: a worker of another osctl version refuses the run's
// configuration; the coordinator's error names both versions, and the worker ends.
func TestConnectRefusesAnotherVersion(t *testing.T) {
	p := servePipe(t, "v1.2.2", ServeOptions{})
	cfg := httpConfig(t, "http://127.0.0.1:1/", 10, 1)
	_, err := Connect(t.Context(), []Proc{p}, []string{"pod-0"}, cfg, ConnectOptions{Version: "v1.2.3", Timeout: 30 * time.Second})
	var ve *VersionError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), "v1.2.2") || !strings.Contains(err.Error(), "v1.2.3") || !strings.Contains(err.Error(), "pod-0") ||
		!strings.Contains(err.Error(), "make image IMAGE=REGISTRY/osctl:v1.2.3") {
		t.Fatalf("err %v, want a VersionError naming v1.2.2, v1.2.3, the pod and the make image that builds v1.2.3's", err)
	}
	<-p.done
	if !errors.Is(p.err, ErrVersion) {
		t.Fatalf("the worker returned %v, want ErrVersion", p.err)
	}
}

// TestFleetLoadMerges: two workers in this process send a shard each of an http load against
// one loopback server: every request is sent exactly once (the server's count), the merged
// counts are the sum of the workers', progress adds up to the total, and bye ends each worker
// without its stdin ever ending.
func TestFleetLoadMerges(t *testing.T) {
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { served.Add(1) }))
	defer srv.Close()
	const n, k = 301, 2
	cfg := httpConfig(t, srv.URL+"/", n, 5)
	procs := []Proc{servePipe(t, "v1.2.3", ServeOptions{ProgressEvery: 10 * time.Millisecond}), servePipe(t, "v1.2.3", ServeOptions{ProgressEvery: 10 * time.Millisecond})}
	f, err := Connect(t.Context(), procs, []string{"a", "b"}, cfg, ConnectOptions{Version: "v1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	var progress atomic.Int64
	l, err := f.Load(t.Context(), &pstress.Setup{}, nil, pstress.LoadObserver{Done: func(d int64) { progress.Add(d) }})
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	for i, p := range procs {
		if err := p.(*pipeProc).err; err != nil {
			t.Errorf("worker %d ended with %v, want nil after bye", i, err)
		}
	}
	c := l.Stats.Counts()
	if c.Total != n || c.Acknowledged != n || served.Load() != n || progress.Load() != n || l.Lost != "" {
		t.Fatalf("merged %+v, served %d, progress %d, lost %q: want %d of each", c, served.Load(), progress.Load(), l.Lost, n)
	}
	if len(l.Workers) != k {
		t.Fatalf("workers %+v", l.Workers)
	}
	var sum int64
	for i, w := range l.Workers {
		if w.Index != i || w.Sent == 0 || w.Lost {
			t.Errorf("worker %+v", w)
		}
		sum += w.Sent
	}
	if sum != n || l.Stats.Histogram().TotalCount() != n {
		t.Fatalf("workers sent %d in all, the merged histogram holds %d, want %d", sum, l.Stats.Histogram().TotalCount(), n)
	}
}

// TestServeStopsWhenTheCoordinatorIsQuiet: a worker that hears nothing, not even a ping, for its
// idle bound stops by itself (its coordinator died), without waiting for stdin to end.
func TestServeStopsWhenTheCoordinatorIsQuiet(t *testing.T) {
	p := servePipe(t, "v1.2.3", ServeOptions{Idle: 100 * time.Millisecond})
	select {
	case <-p.done:
	case <-time.After(time.Minute):
		t.Fatal("the worker did not stop")
	}
	if p.err == nil || !strings.Contains(p.err.Error(), "no word from the coordinator") {
		t.Fatalf("err %v", p.err)
	}
}

// TestStopMidLoad: when the coordinator's context ends during the load, every worker is told to
// stop, stops, and answers with what it sent; none is lost.
func TestStopMidLoad(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	const n = 10_000_000
	cfg := httpConfig(t, srv.URL+"/", n, 4)
	procs := []Proc{servePipe(t, "v1.2.3", ServeOptions{ProgressEvery: 10 * time.Millisecond}), servePipe(t, "v1.2.3", ServeOptions{ProgressEvery: 10 * time.Millisecond})}
	f, err := Connect(t.Context(), procs, nil, cfg, ConnectOptions{Version: "v1.2.3", StopTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var progress atomic.Int64
	l, err := f.Load(ctx, &pstress.Setup{}, nil, pstress.LoadObserver{Done: func(d int64) {
		if progress.Add(d) >= 200 {
			cancel()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if c := l.Stats.Counts(); l.Lost != "" || c.Total < 200 || c.Total >= n {
		t.Fatalf("lost %q, sent %d: want the load stopped early with every worker still there", l.Lost, c.Total)
	}
}
