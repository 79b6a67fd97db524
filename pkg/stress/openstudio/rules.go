package openstudio

import (
	"fmt"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// Rules judge an openstudio run (detect.Rules), whose objects are files on the shared volume:
// lost, torn, mixed and phantom files, failed extractions; contention, extractions and result
// files (its Part). They read the run's directories of the volume (detect.StateReader) and leave out the
// requests whose ids cannot name one (detect.Excluder).
type Rules struct{}

// Findings implements detect.Rules.
func (Rules) Findings(h *history.History, st *snapshot.State, o detect.Options, j *detect.Judgement) []detect.Finding {
	j.Part = partOf(h)
	return append(Findings(h, st, o.Ignore), failedExtractions(h, index(h))...)
}

// Unearned implements detect.Rules.
func (Rules) Unearned(h *history.History, st *snapshot.State, o detect.Options, j *detect.Judgement) []string {
	var out []string
	p, ok := j.Part.(*Part)
	if !ok {
		p = partOf(h)
	}
	if p.Contention != nil && p.Contention.Fraction < o.MinContended {
		out = append(out, fmt.Sprintf("only %d of %d analyses saw two or more overlapping writes (at least %s needed): raise {Concurrency} or lower {Analyses}", p.Contention.Contended, p.Contention.Analyses, detect.Pct(o.MinContended)))
	}
	if !j.Settled {
		out = append(out, "the files were still changing when they were read: raise {SettleTimeout}")
	}
	out = append(out, earnedReasons(h, j.Operations, p.Extractions, p.ResultFiles)...)
	out = append(out, stuckReasons(h, index(h))...)
	if st == nil {
		out = append(out, "the files were not read: pass {StateDir} or {StatePod}")
	}
	return out
}

// Dirs implements detect.StateReader: the directories (relative to the volume root) that hold
// the run's objects.
func (Rules) Dirs(h *history.History) []string { return Dirs(h) }

// Excluded implements detect.Excluder: the requests whose ids cannot name a directory under the
// state directory (UnsafeIDs).
func (Rules) Excluded(h *history.History) []string { return UnsafeIDs(h) }

// ContentionOf measures the contention a run achieved, from its history alone.
func ContentionOf(h *history.History) Contention {
	r := index(h)
	c := Contention{Analyses: len(r.analyses)}
	for _, a := range r.analyses {
		var all, writes []detect.Span
		for _, rec := range r.byA[a] {
			if !rec.Maybe() || rec.Start.IsZero() || rec.End.IsZero() {
				continue
			}
			iv := detect.Span{Start: rec.Start, End: rec.End}
			all = append(all, iv)
			if rec.Op == history.OpUpload || rec.Op == history.OpStart {
				writes = append(writes, iv)
			}
		}
		n, _, _ := detect.Peak(all)
		w, _, _ := detect.Peak(writes)
		c.MaxInFlightOneAnalysis = max(c.MaxInFlightOneAnalysis, n)
		c.MaxOverlappingWrites = max(c.MaxOverlappingWrites, w)
		if w >= 2 {
			c.Contended++
		}
	}
	if c.Analyses > 0 {
		c.Fraction = float64(c.Contended) / float64(c.Analyses)
	}
	return c
}
