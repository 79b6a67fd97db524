package sandbox

import (
	"maps"
	"strconv"
)

// job is one stored job: elb-openapi's job dict entry (and ConfigMap). Both stores hold it the
// same way, as its encoding (encode, decodeJob) says: the local store as a job, the shared store
// as a Redis hash of the encoding. Times are isoTime stamps ("" when not yet).
type job struct {
	ID             string
	Status         string
	Phase          string // "" until the dispatcher or a status read sets one
	Mode           string // "A" (Blob URLs) or "B" (a query_fasta)
	Priority       int    // normalised, 0-100
	Seq            int64  // created, unix microseconds: the queue order among equal priorities
	Attempt        int64  // submit attempts
	CreatedAt      string
	QueuedAt       string
	StartedAt      string // the first dispatch
	UpdatedAt      string
	LastProgressAt string
	CompletedAt    string
	Program        string
	DB             string // the database's URL
	DBName         string
	ClusterName    string
	Resource       string // resource_profile
	Source         string // submission_source
	CorrID         string // external_correlation_id
	IdempotencyKey *string
	Passthrough    string // the passthrough object as JSON ("" none)
	Error          string
	Replica        int    // the replica that accepted it
	ClaimedBy      string // the replica that claimed it ("" until claimed)
	RunUntil       int64  // unix nanoseconds when its work is done (0 until running)
	Requeue        string // the phase of the one requeue still to come ("" none)
	Dead           bool   // its submit thread died; the watchdog requeues it
}

// Fields of a job's encoding (the Redis hash, and the patches the stores apply): the API's
// names, and the sandbox's own bookkeeping.
const (
	fID             = "job_id"
	fStatus         = "status"
	fPhase          = "phase"
	fMode           = "mode"
	fPriority       = "priority"
	fSeq            = "seq"
	fAttempt        = "attempt"
	fCreatedAt      = "created_at"
	fQueuedAt       = "queued_at"
	fStartedAt      = "started_at"
	fUpdatedAt      = "updated_at"
	fLastProgressAt = "last_progress_at"
	fCompletedAt    = "completed_at"
	fProgram        = "program"
	fDB             = "db"
	fDBName         = "db_name"
	fCluster        = "cluster_name"
	fResource       = "resource_profile"
	fSource         = "submission_source"
	fCorrID         = "external_correlation_id"
	fKey            = "idempotency_key"
	fPassthrough    = "passthrough"
	fError          = "error"
	fReplica        = "replica"
	fClaimed        = "claimed_by"
	fRunUntil       = "run_until"
	fRequeue        = "requeue"
	fDead           = "dead" // "1" when dead
)

// encode is the job as the stores keep it: every field a submit sets, and the others only once
// set (an idempotency key only when the submit had one).
func (j *job) encode() map[string]string {
	h := map[string]string{fID: j.ID, fStatus: j.Status, fMode: j.Mode, fCreatedAt: j.CreatedAt, fQueuedAt: j.QueuedAt,
		fUpdatedAt: j.UpdatedAt, fLastProgressAt: j.LastProgressAt, fPriority: strconv.Itoa(j.Priority), fResource: j.Resource,
		fSource: j.Source, fCorrID: j.CorrID, fCluster: j.ClusterName, fProgram: j.Program, fDB: j.DB, fDBName: j.DBName,
		fAttempt: strconv.FormatInt(j.Attempt, 10), fSeq: strconv.FormatInt(j.Seq, 10), fReplica: strconv.Itoa(j.Replica)}
	for k, v := range map[string]string{fPhase: j.Phase, fStartedAt: j.StartedAt, fCompletedAt: j.CompletedAt, fError: j.Error,
		fPassthrough: j.Passthrough, fClaimed: j.ClaimedBy, fRequeue: j.Requeue} {
		if v != "" {
			h[k] = v
		}
	}
	if j.IdempotencyKey != nil {
		h[fKey] = *j.IdempotencyKey
	}
	if j.RunUntil > 0 {
		h[fRunUntil] = strconv.FormatInt(j.RunUntil, 10)
	}
	if j.Dead {
		h[fDead] = "1"
	}
	return h
}

// decodeJob reads a job from its encoding; a missing or malformed number reads as 0.
func decodeJob(h map[string]string) *job {
	num := func(f string) int64 {
		n, _ := strconv.ParseInt(h[f], 10, 64)
		return n
	}
	j := &job{ID: h[fID], Status: h[fStatus], Phase: h[fPhase], Mode: h[fMode], Priority: int(num(fPriority)), Seq: num(fSeq),
		Attempt: num(fAttempt), CreatedAt: h[fCreatedAt], QueuedAt: h[fQueuedAt], StartedAt: h[fStartedAt], UpdatedAt: h[fUpdatedAt],
		LastProgressAt: h[fLastProgressAt], CompletedAt: h[fCompletedAt], Program: h[fProgram], DB: h[fDB], DBName: h[fDBName],
		ClusterName: h[fCluster], Resource: h[fResource], Source: h[fSource], CorrID: h[fCorrID], Passthrough: h[fPassthrough],
		Error: h[fError], Replica: int(num(fReplica)), ClaimedBy: h[fClaimed], RunUntil: num(fRunUntil), Requeue: h[fRequeue],
		Dead: h[fDead] == "1"}
	if k, ok := h[fKey]; ok {
		j.IdempotencyKey = &k
	}
	return j
}

// apply sets the fields of a patch (in the job's encoding) on the job, as the shared store's
// HSET of the patch does on its hash.
func (j *job) apply(set map[string]string) {
	h := j.encode()
	maps.Copy(h, set)
	*j = *decodeJob(h)
}

// clone returns a copy of the job (nil for nil).
func (j *job) clone() *job {
	if j == nil {
		return nil
	}
	c := *j
	return &c
}
