package stress

import (
	"context"
	"fmt"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/report"
	"github.com/osctl/osctl/pkg/stress/snapshot"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

// JudgeOptions change how a saved run is judged. A nil field keeps the run's own threshold or
// setting, which its history holds.
type JudgeOptions struct {
	// Version names osctl in the report.
	Version string
	// Overrides apply onto the run's thresholds (Overrides.Check says which cannot be used).
	verdict.Overrides
	// Ignore replaces the run's ignore list when not nil.
	Ignore []string
}

// Judge gives the report of a run from its history and the state it left (nil: the files were not
// read). It is the verdict Run gave: the same thresholds (unless o overrides them), findings,
// counts and reasons; the measurements come from the history's own request times.
func Judge(h *history.History, st *snapshot.State, o JudgeOptions) *report.Report {
	return judge(h, nil, nil, st, o)
}

// JudgeSaved gives a saved run's verdict again, offline: it reads, through r, the state the run
// left in the directories its history names (for a profile whose objects are files; r may be
// nil where no state can be read) and judges the history with it.
func JudgeSaved(ctx context.Context, h *history.History, r snapshot.Reader, o JudgeOptions) (*report.Report, error) {
	return judgeSaved(ctx, &Saved{History: h}, r, o)
}

func judgeSaved(ctx context.Context, s *Saved, r snapshot.Reader, o JudgeOptions) (*report.Report, error) {
	h := s.History
	var st *snapshot.State
	if r != nil && h.Header.Kind().Files {
		if dirs, ok := stateDirs(h); ok {
			var err error
			if st, err = r.Read(ctx, dirs); err != nil {
				return nil, fmt.Errorf("reading the state: %v", err)
			}
		}
	}
	return judge(h, s.stats, s.fold, st, o), nil
}

// judge is Judge with the attacker's own statistics of a live run (nil: rebuilt from the history)
// and the fold of its load requests when the history keeps none (nil: from its records).
func judge(h *history.History, stats *attack.Stats, f *report.LoadFold, st *snapshot.State, o JudgeOptions) *report.Report {
	if stats == nil {
		stats = history.LoadStats(h)
	}
	opts := detect.OptionsOf(h)
	opts.Thresholds = o.Apply(opts.Thresholds)
	if o.Ignore != nil {
		opts.Ignore = o.Ignore
	}
	if !hasLoad(h) {
		// The http profile keeps no records (with a history file, they are folded as they come, and
		// as judge reads them): the attacker's counts are all there is. Otherwise the records are
		// counted, live and offline alike.
		c := stats.Counts()
		opts.Load = &detect.LoadCounts{Total: int(c.Total), Acknowledged: int(c.Acknowledged), Rejected: int(c.Rejected), Ambiguous: int(c.Ambiguous)}
		opts.Transport = detect.TransportFailures{Count: c.Errors + c.Timeouts, First: stats.FirstError()}
	}
	p, _ := ProfileOf(h.Header.Profile)
	if j, ok := p.(Judger); ok {
		opts.Rules = j.Rules()
	}
	r := report.BuildFolded(h, stats, f, detect.Judge(h, st, opts), o.Version)
	if s, ok := p.(Sectioner); ok {
		r.Section = s.Section(h, r)
	}
	return r
}

// stateDirs are the directories of the state that a run's verdict reads, as its profile's rules
// say (detect.StateReader); false when they read none.
func stateDirs(h *history.History) ([]string, bool) {
	p, _ := ProfileOf(h.Header.Profile)
	j, ok := p.(Judger)
	if !ok {
		return nil, false
	}
	sr, ok := j.Rules().(detect.StateReader)
	if !ok {
		return nil, false
	}
	return sr.Dirs(h), true
}

func hasLoad(h *history.History) bool {
	for i := range h.Records {
		if r := &h.Records[i]; r.Kind == history.KindRequest && !r.Setup {
			return true
		}
	}
	return false
}
