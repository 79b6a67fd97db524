package openstudio

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/osctl/osctl/pkg/stress/profile"

	"github.com/osctl/osctl/pkg/stress/history"
)

// osRun is the state of one openstudio run, apart from its settings (OpenStudio's exported
// fields): the seqs handed out, the analyses created, what their acknowledged requests made
// possible, and the requests still waiting for an answer.
type osRun struct {
	seq       atomic.Int64
	next      atomic.Int64
	analyses  []string // acknowledged analyses
	mu        sync.Mutex
	dataPts   map[string][]string // analysis -> acknowledged data points
	uploaded  map[string]bool     // analyses with an acknowledged upload
	started   map[string]bool     // analyses with an acknowledged start
	pendingUp map[string]int      // analysis -> uploads made and not yet answered
	pendingDP map[string]int      // analysis -> data point creates made and not yet answered
	acked     *sync.Cond          // on mu: broadcast when a request is answered
	tail      *tail
}

func (s *osRun) init() {
	s.dataPts, s.uploaded, s.started = map[string][]string{}, map[string]bool{}, map[string]bool{}
	s.pendingUp, s.pendingDP, s.acked = map[string]int{}, map[string]int{}, sync.NewCond(&s.mu)
}

// snapshot is what the setup created, under project.
func (s *osRun) snapshot(project string) profile.SetupState {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := profile.SetupState{Project: project, Analyses: append([]string(nil), s.analyses...), DataPoints: map[string][]string{}, Seq: s.seq.Load()}
	for _, a := range s.analyses {
		if s.uploaded[a] {
			out.Uploaded = append(out.Uploaded, a)
		}
		if dps := s.dataPts[a]; len(dps) > 0 {
			out.DataPoints[a] = append([]string(nil), dps...)
		}
	}
	return out
}

// restore starts the state from another process's setup.
func (s *osRun) restore(st profile.SetupState) {
	s.init()
	s.analyses = append([]string(nil), st.Analyses...)
	for _, a := range st.Uploaded {
		s.uploaded[a] = true
	}
	for a, dps := range st.DataPoints {
		s.dataPts[a] = append([]string(nil), dps...)
	}
	s.seq.Store(st.Seq)
}

// admit turns the operation drawn for analysis a into one that can be sent now: a result file
// needs an acknowledged data point, a start an acknowledged upload. While a request that may
// give it is in flight it waits; when none is, the operation becomes that request instead. It
// counts an upload or data point create as pending, and returns false when ctx ends first.
func (s *osRun) admit(ctx context.Context, a, kind string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if ctx.Err() != nil {
			return "", false
		}
		if kind == history.OpUploadFile && len(s.dataPts[a]) == 0 {
			if s.pendingDP[a] > 0 {
				s.acked.Wait()
				continue
			}
			kind = history.OpCreateDataPoint
		}
		if kind == history.OpStart && !s.uploaded[a] {
			if s.pendingUp[a] > 0 {
				s.acked.Wait()
				continue
			}
			kind = history.OpUpload
		}
		break
	}
	switch kind {
	case history.OpUpload:
		s.pendingUp[a]++
	case history.OpCreateDataPoint:
		s.pendingDP[a]++
	}
	return kind, true
}

// dataPoint is the acknowledged data point of analysis a that the result file seq attaches to.
func (s *osRun) dataPoint(a string, seq int64) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	dps := s.dataPts[a]
	return dps[int(seq)%len(dps)]
}

// wake wakes the operations waiting in admit (the load ended).
func (s *osRun) wake() {
	s.mu.Lock()
	s.acked.Broadcast()
	s.mu.Unlock()
}

// answered notes what an answered request made possible: an acknowledged upload lets its
// analysis be started, an acknowledged data point gets result files. It wakes the operations
// waiting for that.
func (s *osRun) answered(rec *history.Record, ok bool) {
	a := rec.Analysis
	s.mu.Lock()
	defer s.mu.Unlock()
	switch rec.Op {
	case history.OpUpload:
		if !rec.Setup {
			s.pendingUp[a]--
		}
		s.uploaded[a] = s.uploaded[a] || ok
	case history.OpStart:
		s.started[a] = s.started[a] || ok
	case history.OpCreateDataPoint:
		if !rec.Setup {
			s.pendingDP[a]--
		}
		if ok {
			s.dataPts[a] = append(s.dataPts[a], rec.CreatedID())
		}
	}
	s.acked.Broadcast()
}
