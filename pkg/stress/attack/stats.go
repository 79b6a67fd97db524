package attack

import (
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Why a run stopped sending before its source was exhausted.
const (
	StopDuration    = "duration"    // --duration passed (a normal end)
	StopErrorRate   = "error-rate"  // the error rate passed --max-error-rate
	StopInterrupted = "interrupted" // Ctrl-C or the caller's context
)

// Engines: how requests were sent.
const (
	EngineGoroutines = "goroutines" // a goroutine per request in flight (open loop, https, other platforms)
	EngineEventLoop  = "event-loop" // event loops on non-blocking sockets (closed loop, plain http, Linux)
)

const shards = 16

// Stats are the counters, latency histogram and in-flight timeline of one attack.
type Stats struct {
	Began, Ended time.Time
	Stopped      string // "" when the source ran out
	Engine       string // EngineGoroutines or EngineEventLoop

	inflight atomic.Int64
	peak     atomic.Int64 // the most requests ever in flight at once
	firstErr atomic.Pointer[string]
	done     atomic.Int64
	failed   atomic.Int64

	shard [shards]shard

	mu      sync.Mutex
	samples []Sample
}

type shard struct {
	mu     sync.Mutex
	h      *hdrhistogram.Histogram
	counts Counts
	_      [32]byte // keep shards on separate cache lines
}

// Counts are requests counted by what happened to them; 503s, other 5xx, timeouts and transport
// errors apart.
type Counts struct {
	Total        int64 `json:"total"`
	Acknowledged int64 `json:"acknowledged"`
	Rejected     int64 `json:"rejected"`
	Ambiguous    int64 `json:"ambiguous"`
	Status2xx    int64 `json:"status_2xx"`
	Status3xx    int64 `json:"status_3xx"`
	Status4xx    int64 `json:"status_4xx"`
	Status503    int64 `json:"status_503"`
	Status5xx    int64 `json:"status_5xx_other"`
	Timeouts     int64 `json:"timeouts"`
	Errors       int64 `json:"transport_errors"`
}

func (c *Counts) add(o Counts) {
	c.Total += o.Total
	c.Acknowledged += o.Acknowledged
	c.Rejected += o.Rejected
	c.Ambiguous += o.Ambiguous
	c.Status2xx += o.Status2xx
	c.Status3xx += o.Status3xx
	c.Status4xx += o.Status4xx
	c.Status503 += o.Status503
	c.Status5xx += o.Status5xx
	c.Timeouts += o.Timeouts
	c.Errors += o.Errors
}

// Sample is the number of requests in flight at one moment.
type Sample struct {
	At       time.Time `json:"at"`
	InFlight int64     `json:"in_flight"`
}

// Latency histogram bounds: 1 microsecond to 10 minutes, 3 significant digits.
const (
	minLatencyUS = 1
	maxLatencyUS = int64(10 * time.Minute / time.Microsecond)
)

func newStats(now time.Time) *Stats {
	s := &Stats{Began: now}
	for i := range s.shard {
		s.shard[i].h = hdrhistogram.New(minLatencyUS, maxLatencyUS, 3)
	}
	return s
}

func (s *Stats) record(w int, r *Result, out Outcome) {
	sh := &s.shard[w%shards]
	failed := false
	sh.mu.Lock()
	c := &sh.counts
	c.Total++
	switch out {
	case Acknowledged:
		c.Acknowledged++
	case Rejected:
		c.Rejected++
	default:
		c.Ambiguous++
	}
	switch {
	case r.Err != nil && r.Timeout:
		c.Timeouts++
		failed = true
	case r.Err != nil:
		c.Errors++
		failed = true
	case r.Status == 503:
		c.Status503++
		failed = true
	case r.Status >= 500:
		c.Status5xx++
		failed = true
	case r.Status >= 400:
		c.Status4xx++
	case r.Status >= 300:
		c.Status3xx++
	case r.Status >= 200:
		c.Status2xx++
	}
	if r.Err == nil {
		us := r.Latency().Microseconds()
		if us < minLatencyUS {
			us = minLatencyUS
		}
		if us > maxLatencyUS {
			us = maxLatencyUS
		}
		_ = sh.h.RecordValue(us)
	}
	sh.mu.Unlock()
	if r.Err != nil && s.firstErr.Load() == nil {
		msg := r.Err.Error()
		s.firstErr.CompareAndSwap(nil, &msg)
	}
	s.done.Add(1)
	if failed {
		s.failed.Add(1)
	}
}

// enter counts a request going out, and the peak in flight.
func (s *Stats) enter() {
	n := s.inflight.Add(1)
	for p := s.peak.Load(); n > p && !s.peak.CompareAndSwap(p, n); p = s.peak.Load() {
	}
}

func (s *Stats) addSample(at time.Time, n int64) {
	s.mu.Lock()
	s.samples = append(s.samples, Sample{At: at, InFlight: n})
	s.mu.Unlock()
}

func (s *Stats) finish(now time.Time) { s.Ended = now }

// Counts returns the merged counters.
func (s *Stats) Counts() Counts {
	var c Counts
	for i := range s.shard {
		s.shard[i].mu.Lock()
		c.add(s.shard[i].counts)
		s.shard[i].mu.Unlock()
	}
	return c
}

// Histogram returns the merged latency histogram, in microseconds.
func (s *Stats) Histogram() *hdrhistogram.Histogram {
	h := hdrhistogram.New(minLatencyUS, maxLatencyUS, 3)
	for i := range s.shard {
		s.shard[i].mu.Lock()
		h.Merge(s.shard[i].h)
		s.shard[i].mu.Unlock()
	}
	return h
}

// Timeline returns the in-flight samples in time order.
func (s *Stats) Timeline() []Sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Sample(nil), s.samples...)
}

// FirstError is the error of the first request that failed without an answer (transport error
// or timeout), or "".
func (s *Stats) FirstError() string {
	if p := s.firstErr.Load(); p != nil {
		return *p
	}
	return ""
}

// PeakInFlight is the most requests that were in flight at once.
func (s *Stats) PeakInFlight() int64 { return s.peak.Load() }

// Latency summarises a latency histogram.
type Latency struct {
	Count int64   `json:"count"`
	Min   float64 `json:"min_ms"`
	Mean  float64 `json:"mean_ms"`
	P50   float64 `json:"p50_ms"`
	P90   float64 `json:"p90_ms"`
	P99   float64 `json:"p99_ms"`
	P999  float64 `json:"p999_ms"`
	Max   float64 `json:"max_ms"`
}

// Summarize reads the percentiles of a histogram recorded in microseconds.
func Summarize(h *hdrhistogram.Histogram) Latency {
	ms := func(us int64) float64 { return float64(us) / 1000 }
	if h.TotalCount() == 0 {
		return Latency{}
	}
	return Latency{
		Count: h.TotalCount(),
		Min:   ms(h.Min()),
		Mean:  h.Mean() / 1000,
		P50:   ms(h.ValueAtQuantile(50)),
		P90:   ms(h.ValueAtQuantile(90)),
		P99:   ms(h.ValueAtQuantile(99)),
		P999:  ms(h.ValueAtQuantile(99.9)),
		Max:   ms(h.Max()),
	}
}

func drain(resp *http.Response) {
	if b, ok := resp.Body.(*connBody); ok {
		b.discard(4 << 20)
	} else {
		_, _ = io.CopyN(io.Discard, resp.Body, 4<<20)
	}
	_ = resp.Body.Close()
}

// Classify gives the stress contract's outcome (docs/architecture.md) of a plain HTTP answer: 2xx acknowledged; 503 and other
// 4xx (and 3xx) rejected; other 5xx ambiguous; a transport error ambiguous once the request was
// sent, rejected when it never reached the server.
func Classify(r *Result) Outcome {
	switch {
	case r.Err != nil && r.Sent:
		return Ambiguous
	case r.Err != nil:
		return Rejected
	case r.Status == 503:
		return Rejected
	case r.Status >= 500:
		return Ambiguous
	case r.Status >= 200 && r.Status < 300:
		return Acknowledged
	default:
		return Rejected
	}
}
