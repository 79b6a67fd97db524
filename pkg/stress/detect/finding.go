// Package detect is the stress verdict: a pure function of a run's history and the state it left
// (the stress contract in docs/architecture.md). Judge gives every run the shared part (the load
// by outcome, partial runs, lost load workers, faults caught in flight) and asks the run's
// profile's Rules for its findings: what the acknowledged requests must have produced, diffed
// against what the target holds. Each profile's package holds its own rules.
package detect

import (
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// Finding kinds.
const (
	Lost      = "lost"
	Duplicate = "duplicate"
	Torn      = "torn"
	Mixed     = "mixed"
	Phantom   = "phantom"
	Ceiling   = "ceiling"
	Stranded  = "stranded"
	Invisible = "invisible"
)

// FailedExtraction is an analysis whose extraction (InitializeAnalysis) raised: its job stays
// "queued" for good, an analysis that will never run. Where the zip was torn when it was read
// ("zip: not a valid zip file") it is a write that raced the extraction.
const FailedExtraction = "failed-extraction"

// Finding is one violation of the expected state, with its evidence.
type Finding struct {
	Kind     string       `json:"kind"`
	Object   string       `json:"object"` // analysis, data point, result, record or job id
	Paths    []string     `json:"paths,omitempty"`
	Requests []RequestRef `json:"requests,omitempty"`
	Expected string       `json:"expected"`
	Got      string       `json:"got"`
	// Holds are the seqs of the requests whose bytes the state holds for this object, when some
	// do: the uploads a mixed extraction's entries come from, the upload a duplicate result's
	// file holds.
	Holds []int64 `json:"holds,omitempty"`
	// Cause names a known cause the evidence points at, when one does (CauseReplayRace).
	Cause string `json:"cause,omitempty"`
}

// CauseReplayRace is a ceiling breach on one replica alone after a replay of a submit that was
// still in flight: elb-openapi looks a replay up before it saves the job, and the two steps are
// not atomic (main.py submit_job), so the replay re-creates the job as queued and frees a slot
// still in use. It is the service's replay race, not its per-replica queues.
const CauseReplayRace = "replay race"

// RequestRef names one request of the history as evidence.
type RequestRef struct {
	Seq     int64     `json:"seq"`
	Op      string    `json:"op"`
	Nonce   string    `json:"nonce,omitempty"`
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"`
	Status  int       `json:"status,omitempty"`
	Outcome string    `json:"outcome,omitempty"`
	ID      string    `json:"id,omitempty"`
}

// Ref names r as evidence.
func Ref(r *history.Record) RequestRef {
	id := r.Returned
	if id == "" {
		id = r.ID
	}
	if id == "" {
		id = r.Job
	}
	return RequestRef{Seq: r.Seq, Op: r.Op, Nonce: r.Nonce, Start: r.Start, End: r.End, Status: r.Status, Outcome: r.Outcome, ID: id}
}

// Seqs are the seqs of rs.
func Seqs(rs []*history.Record) []int64 {
	out := make([]int64, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.Seq)
	}
	return out
}

// Refs names the first limit of rs as evidence.
func Refs(rs []*history.Record, limit int) []RequestRef {
	out := make([]RequestRef, 0, min(len(rs), limit))
	for i, r := range rs {
		if i == limit {
			break
		}
		out = append(out, Ref(r))
	}
	return out
}

// DefaultIgnore is the default ignore list: names the app or NFS generate (base-name globs). The
// last one is the temporary file rubyzip writes beside a zip it rewrites (<name>.zipYYYYMMDD-pid-rand)
// and renames over it.
var DefaultIgnore = []string{".osctl-*", "analysis_zip.lock", "analysis_zip.receipt", ".nfs*", "*.zip[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-*"}
