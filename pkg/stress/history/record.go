// Package history is the per-request record of a stress run (docs/architecture.md, the stress contract, 5): one JSON
// line per request, per read-back and per followed job, enough to give the verdict again offline.
package history

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

// SchemaVersion is the version of the history's line format, written in its header line. Version 2
// added read-backs that say whether the body held the record (Found), the analyses' job statuses
// (Op "status"), answer excerpts (Body) and the run's mix.
const SchemaVersion = 2

// Line kinds.
const (
	KindHeader   = "header"   // first line: the run's parameters
	KindRequest  = "request"  // one HTTP request of the run
	KindReadback = "readback" // one read-back of a created record through the API
	KindJob      = "job"      // one followed job and what its polls saw
	KindFooter   = "footer"   // last line: when and how the run ended
)

// Outcomes of one request (docs/architecture.md, the stress contract, 1).
const (
	Acknowledged = "acknowledged" // applied: its effect must be there
	Rejected     = "rejected"     // not applied: its effect must not be there
	Ambiguous    = "ambiguous"    // may or may not be applied
)

// Operations of the profiles.
const (
	OpCreateProject   = "create_project"
	OpCreateAnalysis  = "create_analysis"
	OpUpload          = "upload"
	OpStart           = "start"
	OpCreateDataPoint = "create_data_point"
	OpUploadFile      = "upload_file"
	OpSubmitJob       = "submit_job"
	OpJobList         = "job_list" // a read-back: one job of the run in the service's job list
	OpHTTP            = "http"
)

// Record is one line of the history. Which fields are set depends on Kind and Op.
type Record struct {
	Kind string `json:"kind"`
	Seq  int64  `json:"seq,omitempty"`
	// Worker is the index of the in-cluster load worker that sent the request (osctl stress
	// --workers); nil for a run from one process.
	Worker *int `json:"worker,omitempty"`

	// Header fields.
	Header *Header `json:"header,omitempty"`
	// Footer fields.
	Footer *Footer `json:"footer,omitempty"`

	// Request fields.
	Op     string `json:"op,omitempty"`
	Setup  bool   `json:"setup,omitempty"` // part of the setup (project, analyses), not of the N load requests
	Target string `json:"target,omitempty"`
	Method string `json:"method,omitempty"`
	Path   string `json:"path,omitempty"`
	// Nonce is the request's per-run nonce (profile.Nonce), which proves a record or job the run's.
	Nonce string    `json:"nonce,omitempty"`
	Start time.Time `json:"start,omitzero"`
	// Intended is when an open-loop request should have gone out, when that was before Start:
	// its latency counts from then (no coordinated omission).
	Intended time.Time `json:"intended,omitzero"`
	End      time.Time `json:"end,omitzero"`
	Status   int       `json:"status,omitempty"`
	BodyCode int       `json:"body_code,omitempty"`
	ID       string    `json:"id,omitempty"` // the id the request asked for (client-chosen uuid), or the id read back
	Returned string    `json:"returned_id,omitempty"`
	Outcome  string    `json:"outcome,omitempty"`
	Error    string    `json:"error,omitempty"`
	Timeout  bool      `json:"timeout,omitempty"`
	// Body is the start of the answer's body when the request was not acknowledged (or a
	// read-back found nothing): what the server said, for the report's reasons.
	Body string `json:"body,omitempty"`

	// The profiles' own fields, one struct per profile, embedded by value: encoding/json writes
	// and reads their fields as the record's own (the history's line format is unchanged), and
	// r.Analysis or r.Job read them by promotion.
	Upload
	JobFollow
}

// Upload is the openstudio profile's part of a record: on a request, where it creates a record
// (project, analysis, data point) and what it uploads (a file, a zip and its entries); on a
// read-back, whether the record was there and the analysis's job statuses.
type Upload struct {
	Project   string  `json:"project,omitempty"`
	Analysis  string  `json:"analysis,omitempty"`
	DataPoint string  `json:"data_point,omitempty"`
	File      string  `json:"file,omitempty"`      // the uploaded file's own name
	Generator string  `json:"generator,omitempty"` // version of the body generator
	Hash      string  `json:"hash,omitempty"`      // sha256 hex of the uploaded bytes
	Size      int64   `json:"size,omitempty"`
	Manifest  []Entry `json:"manifest,omitempty"` // a zip's entries

	// Read-back fields: Op is the record kind (project, analysis, data_point), ID its id, Status
	// the GET's status, and Found whether the body held a record whose id is ID (the real server
	// answers a missing project or analysis with 200 and null). Op "status" is one analysis's
	// GET /analyses/:id/status.json: Found says the analysis was listed, Jobs what its jobs were.
	Found bool       `json:"found,omitempty"`
	Jobs  []JobState `json:"jobs,omitempty"`
}

// JobFollow is the jobs profile's part of a record: on a submit, its replay and the job its
// idempotency key names; on a job line, the job and the states its polls saw; on a read-back of
// the service's job list, how the list showed the job.
type JobFollow struct {
	// Job fields.
	Job  string     `json:"job,omitempty"`
	Runs []StateRun `json:"runs,omitempty"`
	Done bool       `json:"done,omitempty"` // reached a terminal state

	// Replay is what the one replay of a submit that got no answer (a timeout, a lost
	// connection) got, sent with the same idempotency key to the same replica; the request's
	// Outcome and Returned are then the replay's. On a job line, Gone says the job answered 404
	// on its replica (after osctl deleted nothing), and was followed no more.
	Replay *Replay `json:"replay,omitempty"`
	Gone   bool    `json:"gone,omitempty"`
	// KeyJob, on a submit, is the job id the service derives from the body's idempotency key
	// (elb-openapi: sha256("<submission_source>:<key>")[:12]): the job the submit made, or would
	// have made, even when no answer named it. Empty when the body has no key.
	KeyJob string `json:"key_job_id,omitempty"`
	// Key and KeySource, on a submit whose body is not the default, are the body's
	// idempotency_key and submission_source: with them cleanup proves that the job KeyJob names
	// is the run's (the key holds the run's nonce). The default body's key is the Nonce.
	Key       string `json:"idempotency_key,omitempty"`
	KeySource string `json:"submission_source,omitempty"`
	// Listed, on a read-back of Op OpJobList, is how the service's own job list (GET /v1/jobs on
	// the replica that accepted the job) showed job Job after following the run's jobs ended.
	Listed *Listed `json:"listed,omitempty"`
}

// Listed is one job as the service's own job list shows it.
type Listed struct {
	Status string `json:"status"`
	// StartedAt is when the service first dispatched the job (elb-openapi keeps the first
	// dispatch across requeues); zero when it never did.
	StartedAt time.Time `json:"started_at,omitzero"`
	// RunSeconds is the service's whole seconds from StartedAt to the job's end (or to the list,
	// for a job still active); nil when it never started.
	RunSeconds *int64 `json:"run_seconds,omitempty"`
}

// WallClock returns the record with its times as a history file holds them, without the
// monotonic clock's reading: a duration computed from it equals the one computed from the file,
// so that a live run's report and `osctl stress judge`'s agree to the nanosecond.
func (r Record) WallClock() Record {
	r.Start, r.Intended, r.End = r.Start.Round(0), r.Intended.Round(0), r.End.Round(0)
	if r.Replay != nil {
		rp := *r.Replay
		rp.Start, rp.End = rp.Start.Round(0), rp.End.Round(0)
		r.Replay = &rp
	}
	if r.Runs != nil {
		runs := make([]StateRun, len(r.Runs))
		for i, run := range r.Runs {
			run.FirstStart, run.FirstEnd, run.LastStart, run.LastEnd = run.FirstStart.Round(0), run.FirstEnd.Round(0), run.LastStart.Round(0), run.LastEnd.Round(0)
			runs[i] = run
		}
		r.Runs = runs
	}
	return r
}

// Replay is the replay of one submit (jobs profile).
type Replay struct {
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"`
	Status  int       `json:"status,omitempty"`
	Error   string    `json:"error,omitempty"`
	Outcome string    `json:"outcome"`
	// Existing is set when an acknowledged replay's answer said it returned the job the key
	// already named ("Existing job returned for idempotency_key."); an acknowledged replay
	// without it was answered as a new submit: the replica did not hold the job yet, so the
	// first submit was still in flight (elb-openapi's replay race, docs/migration/jobs.md).
	Existing bool `json:"existing,omitempty"`
}

// JobState is one job of an analysis as status.json lists it.
type JobState struct {
	Index  int    `json:"index"`
	Status string `json:"status"`
}

// ReadbackStatus is the Op of a read-back of one analysis's status.json.
const ReadbackStatus = "status"

// JobQueued is the status of a job whose InitializeAnalysis has not run, or failed: the real server
// moves a job on only once its extraction succeeded.
const JobQueued = "queued"

// Entry is one entry of an uploaded zip: its name and the sha256 of its bytes.
type Entry struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
	Size int64  `json:"size"`
}

// StateRun is a run of consecutive polls of one job that saw the same state. FirstStart and
// FirstEnd bracket the first of those polls, LastStart and LastEnd the last.
type StateRun struct {
	State string `json:"state"`
	// Phase is the job's phase as those polls read it (jobs profile: waiting_for_capacity and
	// recovered say why a job went back to queued).
	Phase      string    `json:"phase,omitempty"`
	Polls      int       `json:"polls"`
	FirstStart time.Time `json:"first_start"`
	FirstEnd   time.Time `json:"first_end"`
	LastStart  time.Time `json:"last_start"`
	LastEnd    time.Time `json:"last_end"`
}

// Header is the first line of a history: what was run, against what, with which judgement
// parameters.
type Header struct {
	Schema  int      `json:"schema"`
	Run     string   `json:"run"`
	Profile string   `json:"profile"`
	Targets []string `json:"targets"`
	// TargetInfo is what each target said it is (in the order of Targets).
	TargetInfo []TargetInfo `json:"target_info,omitempty"`
	// Rate, Duration and FileLimit are the load's bounds: requests per second (0: closed loop),
	// how long it could send, and the open-files limit it ran with.
	Rate        float64 `json:"rate,omitempty"`
	Duration    string  `json:"duration,omitempty"`
	FileLimit   uint64  `json:"open_files_limit,omitempty"`
	Requests    int     `json:"requests"`
	Concurrency int     `json:"concurrency"`
	// ConcurrencySource is "auto" when Concurrency is the tier's capacity (--concurrency auto),
	// else empty; TierCapacity is the capacity read before the load (0: not read).
	ConcurrencySource string   `json:"concurrency_source,omitempty"`
	TierCapacity      int      `json:"tier_capacity,omitempty"`
	Analyses          int      `json:"analyses,omitempty"`
	Project           string   `json:"project,omitempty"`
	Ignore            []string `json:"ignore,omitempty"`
	// Mix is the openstudio profile's effective mix: the operations it sent, by weight (start is
	// 0 when no target may receive it).
	Mix map[string]int `json:"mix,omitempty"`
	// Thresholds are the run's thresholds for its verdict (max_active, min_acknowledged,
	// min_contended, grace); `osctl stress judge` applies them unless told otherwise. The run
	// writes MinAcknowledged and MinContended; the jobs profile its ceiling and grace.
	verdict.Thresholds
	Started   time.Time `json:"started"`
	Version   string    `json:"osctl_version,omitempty"`
	Generator string    `json:"generator,omitempty"`

	// jobs profile: the service's dispatch tick, the status poll interval and how long one job
	// was followed. A queued job is stranded only after Grace + DispatchInterval + Poll.
	DispatchInterval string `json:"dispatch_interval,omitempty"`
	Poll             string `json:"poll,omitempty"`
	JobTimeout       string `json:"job_timeout,omitempty"`

	// Workers is how many in-cluster load workers sent the load (osctl stress --workers), 0 for
	// one process; Requests, Concurrency and Rate are the whole run's.
	Workers int `json:"workers,omitempty"`
}

// Footer is the last line of a history.
type Footer struct {
	Finished time.Time `json:"finished"`
	Partial  bool      `json:"partial"`
	Reason   string    `json:"reason,omitempty"`
	// Settled is false when the state was read before the target stopped changing.
	Settled bool `json:"settled"`
	// What the run observed beyond the requests, so that judging the history again gives the
	// run's own report: how requests were sent, the notices it gave, how long it waited for the
	// target to settle, how the held-back load waited for the workers, and the Deployment under
	// test.
	Engine     string   `json:"engine,omitempty"`
	Notices    []string `json:"notices,omitempty"`
	SettleWait float64  `json:"settle_wait_s,omitempty"`
	// SettleStopped says why the wait for the target ended (profile.SettleDone, ...).
	SettleStopped   string           `json:"settle_stopped,omitempty"`
	BackgroundWaits []BackgroundWait `json:"background_waits,omitempty"`
	Workload        *Workload        `json:"workload,omitempty"`
	// LoadWorkers are the in-cluster load workers' own figures (osctl stress --workers).
	LoadWorkers []LoadWorker `json:"load_workers,omitempty"`
	// Faults are the faults the run's nemesis was given, with their targets and outcomes.
	Faults []nemesis.Fault `json:"faults,omitempty"`
	// NemesisSeed is the seed of the faults' choice of targets.
	NemesisSeed uint64 `json:"nemesis_seed,omitempty"`
	// TargetsAdded are the pods taken in while the load ran (osctl stress --target-pods), and
	// TargetsGone the URLs of the targets let go (their pods no longer ready, or gone).
	TargetsAdded []TargetInfo `json:"targets_added,omitempty"`
	TargetsGone  []string     `json:"targets_gone,omitempty"`
	// Leftovers is what a dead holder left, read after the load of a run with faults.
	Leftovers *Leftovers `json:"leftovers,omitempty"`
	// StateRead is when the run began reading the state it judges (openstudio: the files), so
	// that the report marks that moment on its timelines.
	StateRead time.Time `json:"state_read,omitzero"`
	// FailedJobs are the background jobs of the run's analyses that failed, as the target's
	// Resque failure list names them (the sandbox's GET /status/failed_jobs, or resque:failed in
	// the app's Redis); nil when the run could not see them.
	FailedJobs []FailedJob `json:"failed_jobs,omitempty"`
}

// FailedJob is one failed background job of an analysis of the run: the extraction
// (InitializeAnalysis) that raised, or that a worker died while performing.
type FailedJob struct {
	Class    string `json:"class"`
	Analysis string `json:"analysis"`
	// Worker is the Resque worker's name (host:pid:queues); Exception and Error what it raised.
	Worker    string `json:"worker"`
	Exception string `json:"exception"`
	Error     string `json:"error"`
	// RunAt is when the worker began the job; FailedAt when it failed (as Resque writes it, to
	// the second).
	RunAt    time.Time `json:"run_at,omitzero"`
	FailedAt string    `json:"failed_at"`
}

// DirtyExit is the exception Resque records for the job of a worker that died while performing
// it (a killed replica): the job was lost with its worker, not failed by the app.
const DirtyExit = "Resque::PruneDeadWorkerDirtyExit"

// LoadWorker is one in-cluster load worker's share of a run (osctl stress --workers): its pod,
// what it sent and how it went, what it cost, and whether it was lost before it finished.
type LoadWorker struct {
	Index        int     `json:"index"`
	Pod          string  `json:"pod"`
	Sent         int64   `json:"sent"`
	Acknowledged int64   `json:"acknowledged"`
	Throughput   float64 `json:"throughput_rps"`
	P99          float64 `json:"p99_ms"`
	Errors       int64   `json:"errors"`
	CPU          float64 `json:"cpu_s,omitempty"`
	MaxRSS       int64   `json:"max_rss_bytes,omitempty"`
	Lost         bool    `json:"lost,omitempty"`
	Reason       string  `json:"reason,omitempty"`
	// Unstopped marks a worker lost with no exit status while its pod was still there (its node's
	// container runtime went away, say): its process may have gone on sending requests that no
	// history holds, so findings of the run are not proof (detect: inconclusive).
	Unstopped bool `json:"unstopped,omitempty"`
}

// BackgroundWait is one held-back part of an openstudio load, which waits for the target's
// background workers (the Resque workers that extract a started analysis): how far into the run
// it was released, how long it waited, whether a background worker was seen taking a job (else
// the wait ran out), and how many jobs had left "queued" by then. Histories of schema 2 call
// these worker_waits, with worker_seen; they read the same.
type BackgroundWait struct {
	AtS     float64 `json:"at_s"`
	WaitedS float64 `json:"waited_s"`
	Taken   bool    `json:"job_taken"`
	JobsRan int     `json:"jobs_ran"`
}

// UnmarshalJSON reads a wait of either schema.
func (w *BackgroundWait) UnmarshalJSON(b []byte) error {
	var v struct {
		AtS        float64 `json:"at_s"`
		WaitedS    float64 `json:"waited_s"`
		Taken      *bool   `json:"job_taken"`
		WorkerSeen bool    `json:"worker_seen"`
		JobsRan    int     `json:"jobs_ran"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*w = BackgroundWait{AtS: v.AtS, WaitedS: v.WaitedS, Taken: v.WorkerSeen, JobsRan: v.JobsRan}
	if v.Taken != nil {
		w.Taken = *v.Taken
	}
	return nil
}

// Workload is the Deployment under test, when the run was told it.
type Workload struct {
	Namespace  string `json:"namespace"`
	Deployment string `json:"deployment"`
	Image      string `json:"image"`
	Replicas   int32  `json:"replicas"`
}

// TargetInfo is what one target said it is when the run probed it (GET /status).
type TargetInfo struct {
	URL          string `json:"url"`
	Sandbox      bool   `json:"sandbox"`
	Replica      *int   `json:"replica,omitempty"`
	Locking      string `json:"locking,omitempty"`
	Queue        string `json:"queue,omitempty"`
	MaxActive    int    `json:"max_active,omitempty"`
	StartAllowed bool   `json:"start_allowed"`
	// Pod is the pod behind the URL (a port-forward of osctl stress --target-pods); Added says it
	// was taken in while the load ran, Gone that it was let go before the run ended.
	Pod   string `json:"pod,omitempty"`
	Added bool   `json:"added,omitempty"`
	Gone  bool   `json:"gone,omitempty"`
	// Requests are the load requests sent to it (the report's; not in the history).
	Requests *int `json:"requests,omitempty"`
}

// Describe says what one request got, for a reason or an error: the transport error, or the status
// (and action.json's body code) with the start of the body.
func (r *Record) Describe() string {
	s := ""
	switch {
	case r.Error != "":
		return r.Error
	case r.BodyCode != 0:
		s = fmt.Sprintf("HTTP %d, body code %d", r.Status, r.BodyCode)
	default:
		s = fmt.Sprintf("HTTP %d", r.Status)
	}
	if r.Body != "" {
		s += ": " + r.Body
	}
	return s
}

// Applied reports whether the request's effect must be there (acknowledged).
func (r *Record) Applied() bool { return r.Outcome == Acknowledged }

// CreatedID is the id of what a create made: the id the server returned, else the one sent.
func (r *Record) CreatedID() string {
	if r.Returned != "" {
		return r.Returned
	}
	return r.ID
}

// Maybe reports whether the request's effect may be there (acknowledged or ambiguous).
func (r *Record) Maybe() bool { return r.Outcome == Acknowledged || r.Outcome == Ambiguous }

// UnmarshalJSON reads a footer of either schema 2 spelling (worker_waits before they were
// called background_waits).
func (f *Footer) UnmarshalJSON(b []byte) error {
	type plain Footer
	var v struct {
		plain
		WorkerWaits []BackgroundWait `json:"worker_waits"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = Footer(v.plain)
	if len(f.BackgroundWaits) == 0 {
		f.BackgroundWaits = v.WorkerWaits
	}
	return nil
}
