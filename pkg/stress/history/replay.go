package history

import (
	"errors"

	"github.com/osctl/osctl/pkg/stress/attack"
)

// Result is what the attacker measured of the request r records: its own times, status, error
// and whether it was sent.
func (r *Record) Result() attack.Result {
	res := attack.Result{Seq: uint64(r.Seq), Start: r.Start, End: r.End, Intended: r.Start, Status: r.Status, Timeout: r.Timeout, Sent: r.Status != 0}
	if !r.Intended.IsZero() {
		res.Intended = r.Intended
	}
	if r.Error != "" && r.Status == 0 {
		res.Err = errors.New(r.Error)
	}
	return res
}

// LoadStats rebuilds the attacker's statistics of a run from its history: one result per load
// request (setup requests are not load), with its outcome.
func LoadStats(h *History) *attack.Stats {
	p := attack.NewReplayer()
	for i := range h.Records {
		AddLoad(p, &h.Records[i])
	}
	return p.Stats()
}

// AddLoad adds rec to p if it is a load request (setup requests are not load), and says whether
// it was.
func AddLoad(p *attack.Replayer, rec *Record) bool {
	if rec.Kind != KindRequest || rec.Setup {
		return false
	}
	res := rec.Result()
	p.Add(&res, attack.ParseOutcome(rec.Outcome))
	return true
}
