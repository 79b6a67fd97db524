// Package detect is the stress verdict: a pure function of a run's history and the state it left
// (the stress contract in docs/architecture.md). It builds what the acknowledged requests must have produced
// and diffs the state against it: lost, duplicate, torn, mixed, phantom for the openstudio
// profile; ceiling, stranded, invisible, lost for the jobs profile.
package detect

import (
	"path"
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

func ref(r *history.Record) RequestRef {
	id := r.Returned
	if id == "" {
		id = r.ID
	}
	if id == "" {
		id = r.Job
	}
	return RequestRef{Seq: r.Seq, Op: r.Op, Nonce: r.Nonce, Start: r.Start, End: r.End, Status: r.Status, Outcome: r.Outcome, ID: id}
}

func seqs(rs []*history.Record) []int64 {
	out := make([]int64, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.Seq)
	}
	return out
}

func refs(rs []*history.Record, limit int) []RequestRef {
	out := make([]RequestRef, 0, min(len(rs), limit))
	for i, r := range rs {
		if i == limit {
			break
		}
		out = append(out, ref(r))
	}
	return out
}

// DefaultIgnore is the default ignore list: names the app or NFS generate (base-name globs). The
// last one is the temporary file rubyzip writes beside a zip it rewrites (<name>.zipYYYYMMDD-pid-rand)
// and renames over it.
var DefaultIgnore = []string{".osctl-*", "analysis_zip.lock", "analysis_zip.receipt", ".nfs*", "*.zip[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-*"}

func ignored(p string, ignore []string) bool {
	base := path.Base(p)
	for _, g := range ignore {
		if ok, _ := path.Match(g, base); ok {
			return true
		}
	}
	return false
}

// Storage paths relative to the volume root (docs/architecture.md, the stress contract, 3).
func zipDir(a string) string        { return "server/assets/analyses/" + a }
func zipPath(a, name string) string { return zipDir(a) + "/original/" + name }
func extractDir(a string) string    { return "server/analyses/" + a }
func resultDir(id string) string    { return "server/assets/data_points/" + id }
func resultPath(id, name string) string {
	return resultDir(id) + "/files/original/" + name
}
