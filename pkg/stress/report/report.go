// Package report is the result of a stress run: a versioned JSON document (also read by
// `osctl rollout --stress-report`), a JUnit file, and a self-contained HTML page.
package report

import (
	"encoding/json"
	"io"
	"time"

	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/setting"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// Schema names the report's format; SchemaVersion changes when a field changes meaning.
const (
	Schema = "osctl.stress.report"
	// Version 2 renamed worker_waits to background_waits, and in each wait worker_seen to
	// job_taken (docs/architecture.md); no other field changed.
	SchemaVersion = 2
)

// Report is everything a stress run found and measured.
type Report struct {
	Schema        string   `json:"schema"`
	SchemaVersion int      `json:"schema_version"`
	OsctlVersion  string   `json:"osctl_version"`
	Run           string   `json:"run"`
	Profile       string   `json:"profile"`
	Targets       []Target `json:"targets"`

	Requests    int `json:"requests"` // N asked for (0: bounded by duration)
	Concurrency int `json:"concurrency"`
	// ConcurrencySource is "auto" when Concurrency is the tier's capacity (--concurrency auto);
	// TierCapacity is the capacity of the pods under test read before the load (0: not read).
	ConcurrencySource string  `json:"concurrency_source,omitempty"`
	TierCapacity      int     `json:"tier_capacity,omitempty"`
	Rate              float64 `json:"rate,omitempty"`
	Duration          string  `json:"duration,omitempty"`
	Engine            string  `json:"engine,omitempty"` // how requests were sent: event-loop or goroutines

	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at"`
	Elapsed    float64   `json:"elapsed_s"`

	Counts       attack.Counts  `json:"counts"`
	Latency      attack.Latency `json:"latency"`
	Throughput   float64        `json:"throughput_rps"`
	PeakInFlight int64          `json:"peak_in_flight"`
	FileLimit    uint64         `json:"open_files_limit,omitempty"`
	Outcomes     map[string]int `json:"outcomes"`
	AckFraction  float64        `json:"acknowledged_fraction"`
	// Operations counts each operation's requests by outcome.
	Operations []detect.OpStats `json:"operations,omitempty"`

	Partial    bool    `json:"partial"`
	StopReason string  `json:"stop_reason,omitempty"`
	Settled    bool    `json:"settled"`
	SettleWait float64 `json:"settle_wait_s,omitempty"`
	// SettleStopped says why the wait for the target after the load ended: settled, no progress,
	// ceiling or canceled.
	SettleStopped string   `json:"settle_stopped,omitempty"`
	Verdict       string   `json:"verdict"` // clean | races | inconclusive
	Conclusive    bool     `json:"conclusive"`
	Reasons       []string `json:"reasons,omitempty"`

	Workload             *Workload `json:"workload,omitempty"`
	MaxReplicasValidated int       `json:"max_replicas_validated"`

	// Workers are the in-cluster load workers (osctl stress --workers), one summary each; none for
	// a run from this process alone.
	Workers []WorkerSummary `json:"workers,omitempty"`
	// Faults are what the nemesis injected during the load (osctl stress --nemesis): kind, at,
	// for, target, outcome.
	Faults      []nemesis.Fault `json:"faults,omitempty"`
	NemesisSeed uint64          `json:"nemesis_seed,omitempty"`
	// Leftovers is what a dead holder may have left (a run with faults): apart from the
	// findings, it never changes the verdict or the exit code.
	Leftovers *Leftovers `json:"leftovers,omitempty"`

	FindingCounts map[string]int   `json:"finding_counts"`
	Findings      []detect.Finding `json:"findings"`
	Notices       []string         `json:"notices,omitempty"`
	// Thresholds are the ones the verdict applied; StateRead is when the run began reading the
	// state it judged.
	Thresholds *detect.Thresholds `json:"thresholds,omitempty"`
	StateRead  time.Time          `json:"state_read_at,omitzero"`

	Timeline  []attack.Sample `json:"in_flight_timeline,omitempty"`
	Histogram []Bucket        `json:"latency_histogram,omitempty"`
	// PerOperation and PerTarget break the load requests down by operation and by target
	// (replica); OverTime is the load in time buckets. All three come from the history's
	// records (none for an http run without a history).
	PerOperation []Breakdown `json:"per_operation,omitempty"`
	PerTarget    []Breakdown `json:"per_target,omitempty"`
	OverTime     *Series     `json:"over_time,omitempty"`

	// Part is the run's profile's own part of the report, as its verdict's rules measured it
	// (detect.Judgement.Part; nil: none). Its JSON fields are the report's own, at the top level.
	Part Part `json:"-"`

	// Section is the run's profile's own part of the report (stress.Sectioner; none: nil).
	Section any `json:"section,omitempty"`

	// Timelines are the findings' race timelines, which the HTML page draws. They are not in the
	// JSON report: Build makes them from the history.
	Timelines []Timeline `json:"-"`

	// active are the stretches during which the run's objects were surely active (its jobs'), as
	// the verdict found them (detect.Judgement.Active): the timelines draw them.
	active []detect.Span

	// names renders {Name} setting references in the text Next returns (NameSettings).
	names func(string) string
}

// Target is one target of the run and what it said it is.
type Target = history.TargetInfo

// WorkerSummary is one in-cluster load worker's share of a run, as the history's footer has it:
// its pod, what it sent, how much was acknowledged, its throughput and 99th percentile latency,
// its requests that got no answer, what its process used, and whether it was lost before it
// finished.
type WorkerSummary = history.LoadWorker

// Workload is the Deployment under test, when --kubeconfig and --deployment are given.
type Workload = history.Workload

// Bucket is one bar of the latency histogram: requests whose latency is in [From, To) ms.
type Bucket struct {
	FromMS float64 `json:"from_ms"`
	ToMS   float64 `json:"to_ms"`
	Count  int64   `json:"count"`
}

// ApplyJudgement copies a verdict into the report.
func (r *Report) ApplyJudgement(j detect.Judgement) {
	r.Verdict, r.Conclusive, r.Reasons = j.Verdict, j.Conclusive, j.Reasons
	r.Partial, r.Settled = j.Partial, j.Settled
	r.Outcomes, r.AckFraction, r.Operations = j.Outcomes, j.AckFraction, j.Operations
	r.FindingCounts, r.Findings = j.Counts, j.Findings
	th := j.Thresholds
	r.Thresholds = &th
	r.Part, _ = j.Part.(Part)
	r.active = j.Active
	if r.Findings == nil {
		r.Findings = []detect.Finding{}
	}
}

// ExitCode is the run's exit code: 0 clean and conclusive, 1 races found, 2 inconclusive.
func (r *Report) ExitCode() int {
	switch r.Verdict {
	case detect.Clean:
		return 0
	case detect.Races:
		return 1
	default:
		return 2
	}
}

// WriteJSON writes the report as indented JSON (what --report writes).
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Kind is the run's profile.
func (r *Report) Kind() history.Profile {
	return history.KindOf(r.Profile)
}

// NameSettings renders the {Name} setting references (pkg/setting) in the report's reasons,
// notices and next step as the reader knows those settings (osctl stress's flags: as maps a Go
// name to its flag). Call it once, before the report is written or printed.
func (r *Report) NameSettings(as func(name string) string) {
	r.names = as
	for i := range r.Reasons {
		r.Reasons[i] = setting.Refs(r.Reasons[i], as)
	}
	for i := range r.Notices {
		r.Notices[i] = setting.Refs(r.Notices[i], as)
	}
}

// named renders s's setting references as NameSettings asked (none: Go names stay in braces).
func (r *Report) named(s string) string {
	if r.names == nil {
		return s
	}
	return setting.Refs(s, r.names)
}
