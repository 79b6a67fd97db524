package detect

import (
	"fmt"

	"github.com/osctl/osctl/pkg/stress/history"
)

// OpStats counts one operation's load requests by outcome (docs/architecture.md: a verdict must be
// earned per operation).
type OpStats struct {
	Op           string `json:"op"`
	Sent         int    `json:"sent"`
	Acknowledged int    `json:"acknowledged"`
	Rejected     int    `json:"rejected"`
	Ambiguous    int    `json:"ambiguous"`
	// FirstFailure is what the first request that was not acknowledged got: status and the start
	// of the body, or the transport error.
	FirstFailure string `json:"first_failure,omitempty"`
}

// Extractions says which analyses' extractions could be judged.
type Extractions struct {
	// Expected is how many analyses had a start acknowledged after an acknowledged upload.
	Expected int `json:"expected"`
	// Judged is how many analyses' extractions were judged: a job of theirs left "queued".
	Judged int `json:"judged"`
	// NotJudged is how many expected extractions were not judged: every job of the analysis was
	// still queued when its status was read (not run yet, or failed).
	NotJudged int `json:"not_judged"`
	// Jobs is how many jobs status.json listed for the run's analyses; Ran how many left "queued",
	// Queued how many had not.
	Jobs   int `json:"jobs"`
	Ran    int `json:"ran"`
	Queued int `json:"queued"`
}

// ResultFiles says which acknowledged result files were judged lost if missing.
type ResultFiles struct {
	// Judged is how many acknowledged upload_files must have left their file.
	Judged int `json:"judged"`
	// NotJudged is how many were on a data point of an analysis that was started: the simulation
	// worker deletes a data point's result files by design before it simulates it, so their
	// absence proves nothing (a file that is there is still judged by its bytes).
	NotJudged int `json:"not_judged"`
}

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

// MixName is the --mix name of a history operation.
func MixName(op string) string {
	if op == history.OpCreateDataPoint {
		return "data_point"
	}
	return op
}

// Operations counts the history's load requests per operation, in order of first appearance
// (the openstudio operations always in their fixed order).
func Operations(h *history.History) []OpStats {
	idx := map[string]int{}
	var out []OpStats
	for _, op := range h.Header.Kind().Ops {
		idx[op] = len(out)
		out = append(out, OpStats{Op: op})
	}
	for i := range h.Records {
		r := &h.Records[i]
		if r.Kind != history.KindRequest || r.Setup {
			continue
		}
		name := MixName(r.Op)
		k, ok := idx[name]
		if !ok {
			k = len(out)
			idx[name] = k
			out = append(out, OpStats{Op: name})
		}
		s := &out[k]
		s.Sent++
		switch r.Outcome {
		case history.Acknowledged:
			s.Acknowledged++
			continue
		case history.Rejected:
			s.Rejected++
		default:
			s.Ambiguous++
		}
		if s.FirstFailure == "" {
			s.FirstFailure = r.Describe()
		}
	}
	return out
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
func earnedReasons(h *history.History, ops []OpStats, x *Extractions, rf *ResultFiles) []string {
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
