package openstudio

import (
	"fmt"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// ResultFilesOf counts, from the history alone, which result files were judged.
func ResultFilesOf(h *history.History) ResultFiles {
	r := index(h)
	var x ResultFiles
	for _, ups := range r.results {
		n := len(applied(ups))
		if resultsDeletable(r, ups) {
			x.NotJudged += n
		} else {
			x.Judged += n
		}
	}
	return x
}

// ExtractionsOf counts, from the history alone, which extractions could be judged.
func ExtractionsOf(h *history.History) Extractions {
	r := index(h)
	var x Extractions
	for _, a := range r.analyses {
		st := r.readbacks[history.ReadbackStatus+"/"+a]
		ran := jobRan(st)
		if ran {
			x.Judged++
		} else if len(mustExtract(r.uploads[a], r.starts[a])) > 0 {
			x.NotJudged++
		}
		if len(mustExtract(r.uploads[a], r.starts[a])) > 0 {
			x.Expected++
		}
		if st != nil {
			for _, j := range st.Jobs {
				x.Jobs++
				if j.Status == history.JobQueued {
					x.Queued++
				} else {
					x.Ran++
				}
			}
		}
	}
	return x
}

// earnedReasons says why a run without findings proved nothing about an operation: an operation
// of the mix that was never sent or never acknowledged, or starts whose extractions could not be
// judged.
func earnedReasons(h *history.History, ops []detect.OpStats, x *Extractions, rf *ResultFiles) []string {
	var out []string
	why := map[string]string{
		"start":       "a start is sent only once an upload of that analysis was acknowledged, and none was",
		"upload_file": "a result file is uploaded only to an acknowledged data point, and none was",
	}
	for _, s := range ops {
		if h.Header.Mix[s.Op] <= 0 {
			continue
		}
		switch {
		case s.Sent == 0:
			r := fmt.Sprintf("no %s request was sent, so the run proved nothing about it", s.Op)
			if w := why[s.Op]; w != "" {
				r += ": " + w
			}
			out = append(out, r)
		case s.Acknowledged == 0:
			out = append(out, fmt.Sprintf("no %s was acknowledged (%d sent), so the run proved nothing about it; the first got %s", s.Op, s.Sent, s.FirstFailure))
		}
	}
	for _, s := range ops {
		if s.Op == "start" && s.Acknowledged > 0 && x != nil && x.Judged == 0 {
			out = append(out, fmt.Sprintf("%d starts were acknowledged, but no extraction could be judged: no job of the run's analyses left \"queued\" before the state was read (not run yet, or failed); raise {SettleTimeout}", s.Acknowledged))
		}
		if s.Op == "upload_file" && s.Acknowledged > 0 && rf != nil && rf.Judged == 0 && rf.NotJudged > 0 {
			out = append(out, fmt.Sprintf("%d result files were acknowledged, but none could be judged lost if missing: each was on an analysis that was started, whose data points' result files the simulation worker deletes by design; give the run two or more {Analyses} (the profile never starts some of them)", rf.NotJudged))
		}
	}
	return out
}
