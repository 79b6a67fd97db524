// Package preflight holds the result type every osctl check returns (NFS, Redis, manifests, and
// the rollout's gates) and how results add up to an exit status.
package preflight

// Status is the grade of one check.
type Status string

// The statuses, from best to worst; Unknown (a check that could not be evaluated) does not by
// itself change the exit code.
const (
	Pass    Status = "pass"
	Info    Status = "info"
	Unknown Status = "unknown"
	Warn    Status = "warn"
	Fail    Status = "fail"
)

// Result is one check's outcome. ID is stable: users ignore rules by id.
type Result struct {
	ID      string `json:"id"`
	Status  Status `json:"status"`
	Subject string `json:"subject"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

// Failed reports whether any result is a FAIL.
func Failed(rs []Result) bool {
	for _, r := range rs {
		if r.Status == Fail {
			return true
		}
	}
	return false
}

// Count returns how many results have each status.
func Count(rs []Result) map[Status]int {
	m := map[Status]int{}
	for _, r := range rs {
		m[r.Status]++
	}
	return m
}
