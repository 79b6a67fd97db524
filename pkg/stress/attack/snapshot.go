package attack

import (
	"fmt"
	"sort"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Snapshot is the statistics of one attack in a form that can be sent to another process and
// merged with others (osctl stress --slots): exact counters, the encoded HDR latency histogram,
// the in-flight timeline and the peak.
type Snapshot struct {
	Began      time.Time `json:"began"`
	Ended      time.Time `json:"ended"`
	Stopped    string    `json:"stopped,omitempty"`
	Engine     string    `json:"engine,omitempty"`
	Counts     Counts    `json:"counts"`
	Histogram  string    `json:"histogram,omitempty"` // V2 compressed, base64
	Timeline   []Sample  `json:"timeline,omitempty"`
	Peak       int64     `json:"peak"`
	FirstError string    `json:"first_error,omitempty"`
}

// Snapshot returns the statistics as a Snapshot.
func (s *Stats) Snapshot() (Snapshot, error) {
	enc, err := s.Histogram().Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return Snapshot{}, fmt.Errorf("encoding the latency histogram: %v", err)
	}
	return Snapshot{Began: s.Began, Ended: s.Ended, Stopped: s.Stopped, Engine: s.Engine, Counts: s.Counts(),
		Histogram: string(enc), Timeline: s.Timeline(), Peak: s.PeakInFlight(), FirstError: s.FirstError()}, nil
}

// Merge adds the statistics of attacks that ran side by side into one: counts summed, histograms
// merged, the requests in flight at each moment summed over the parts (each part's timeline is a
// step function: its last sample before that moment, 0 outside its own run), and the peak the
// most of that sum and of each part's own peak. The run began with the first part and ended with
// the last; it stopped for the first reason any part gave (interrupted first), and its engine is
// the parts' when they agree.
func Merge(parts []Snapshot) (*Stats, error) {
	s := newStats(time.Time{})
	if len(parts) == 0 {
		return s, nil
	}
	s.Began, s.Ended = parts[0].Began, parts[0].Ended
	engines := map[string]bool{}
	var peak int64
	for i, p := range parts {
		if p.Began.Before(s.Began) {
			s.Began = p.Began
		}
		if p.Ended.After(s.Ended) {
			s.Ended = p.Ended
		}
		if p.Engine != "" {
			engines[p.Engine] = true
		}
		if p.Histogram != "" {
			h, err := hdrhistogram.Decode([]byte(p.Histogram))
			if err != nil {
				return nil, fmt.Errorf("part %d: decoding its latency histogram: %v", i, err)
			}
			s.shard[0].h.Merge(h)
		}
		s.shard[0].counts.add(p.Counts)
		if p.FirstError != "" && s.firstErr.Load() == nil {
			msg := p.FirstError
			s.firstErr.Store(&msg)
		}
		peak = max(peak, p.Peak)
	}
	for _, why := range []string{StopInterrupted, StopErrorRate, StopDuration} {
		for _, p := range parts {
			if p.Stopped == why && s.Stopped == "" {
				s.Stopped = why
			}
		}
	}
	if len(engines) == 1 {
		for e := range engines {
			s.Engine = e
		}
	}
	s.samples = sumTimelines(parts)
	for _, x := range s.samples {
		peak = max(peak, x.InFlight)
	}
	s.peak.Store(peak)
	c := s.shard[0].counts
	s.done.Store(c.Total)
	s.failed.Store(c.Timeouts + c.Errors + c.Status503 + c.Status5xx)
	return s, nil
}

// sumTimelines sums step functions: at every moment any part sampled, the last sample of each
// part at or before it (0 before a part's first sample and after its end).
func sumTimelines(parts []Snapshot) []Sample {
	if len(parts) == 1 {
		return append([]Sample(nil), parts[0].Timeline...)
	}
	var at []time.Time
	for _, p := range parts {
		for _, x := range p.Timeline {
			at = append(at, x.At)
		}
	}
	sort.Slice(at, func(i, j int) bool { return at[i].Before(at[j]) })
	out := make([]Sample, 0, len(at))
	next := make([]int, len(parts)) // per part: its first sample after the moment
	for i, t := range at {
		if i > 0 && t.Equal(at[i-1]) {
			continue
		}
		var sum int64
		for k, p := range parts {
			for next[k] < len(p.Timeline) && !p.Timeline[next[k]].At.After(t) {
				next[k]++
			}
			if next[k] > 0 && !t.After(p.Ended) {
				sum += p.Timeline[next[k]-1].InFlight
			}
		}
		out = append(out, Sample{At: t, InFlight: sum})
	}
	return out
}
