package detect

import (
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
