package nemesis

// InFlight counts the load requests a fault caught: sent before it hit (before a pause ended)
// and not answered before it hit (before a pause began), on the replica it hit, or on every
// target for a Redis fault (every replica's locks live on the masters) and where the history
// cannot tell which targets are the replica's (a pod behind a Service).
type InFlight struct {
	// Scope names the targets whose requests could be caught ("replica 1 (http://...)", "every
	// target").
	Scope        string `json:"scope"`
	Requests     int    `json:"requests"`
	Acknowledged int    `json:"acknowledged"`
	Rejected     int    `json:"rejected"`
	Ambiguous    int    `json:"ambiguous"`
	// Seqs are the first MaxInFlightSeqs of them, by seq.
	Seqs []int64 `json:"seqs,omitempty"`
}

// MaxInFlightSeqs bounds InFlight.Seqs.
const MaxInFlightSeqs = 50
