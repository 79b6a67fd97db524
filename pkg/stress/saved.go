package stress

import (
	"context"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/report"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// Saved is a run's history read back to be judged: the records its verdict needs, and, for a
// profile whose verdict needs none (the http profile), its load requests folded as they were read
// instead of kept: memory that does not grow with the run.
type Saved struct {
	History *history.History
	stats   *attack.Stats
	fold    *report.LoadFold
}

// ReadSaved reads a history file (osctl stress --history) to be judged.
func ReadSaved(path string) (*Saved, error) {
	var p *attack.Replayer
	var f *report.LoadFold
	h, err := history.ScanFile(path, func(hd *history.Header, rec *history.Record) bool {
		if hd.Kind().Records {
			return false
		}
		if p == nil {
			p, f = attack.NewReplayer(), report.NewLoadFold(hd.Started)
		}
		return history.AddLoad(p, rec) && f.Add(rec)
	})
	if err != nil {
		return nil, err
	}
	s := &Saved{History: h, fold: f}
	if p != nil {
		s.stats = p.Stats()
	}
	return s, nil
}

// Judge gives the saved run's verdict again, offline, as JudgeSaved does.
func (s *Saved) Judge(ctx context.Context, r snapshot.Reader, o JudgeOptions) (*report.Report, error) {
	return judgeSaved(ctx, s, r, o)
}
