package sandbox

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Job states of the elb-openapi job API.
const (
	JobQueued      = "queued"
	JobDispatching = "dispatching"
	JobSubmitting  = "submitting"
	JobRunning     = "running"
	JobCompleted   = "completed"
	JobFailed      = "failed"
	JobCancelled   = "cancelled"
)

// JobActive reports whether a state counts against the ceiling.
func JobActive(state string) bool {
	return state == JobDispatching || state == JobSubmitting || state == JobRunning
}

// JobTerminal reports whether a state is final.
func JobTerminal(state string) bool {
	return state == JobCompleted || state == JobFailed || state == JobCancelled
}

// Job is one job as the job API shows it.
type Job struct {
	JobID         string `json:"job_id"`
	Status        string `json:"status"`
	QueuePosition *int   `json:"queue_position"`
	CreatedAt     string `json:"created_at"`
	UpdatedAt     string `json:"updated_at"`
	StartedAt     string `json:"started_at,omitempty"`
	FinishedAt    string `json:"finished_at,omitempty"`
	StatusURL     string `json:"status_url"`
	Program       string `json:"program,omitempty"`
	// Replica is the replica that accepted the job (local and split queues) or ran it (shared
	// queue).
	Replica *int   `json:"replica,omitempty"`
	Error   string `json:"error,omitempty"`
}

var (
	errNoJob   = errors.New("job not found")
	errJobDone = errors.New("job already finished")
)

// jobQueue is where a replica keeps its jobs: its own dict (local, split) or Redis (shared).
type jobQueue interface {
	submit(ctx context.Context, program string) (Job, error)
	get(ctx context.Context, id string) (Job, error)
	list(ctx context.Context) ([]Job, error)
	cancel(ctx context.Context, id string) (Job, error)
	// run dispatches queued jobs while a slot is free, until ctx ends.
	run(ctx context.Context)
}

// jobPhases splits a job's duration into its active states: short dispatching and submitting
// steps, then running for the rest.
func jobPhases(d time.Duration) []struct {
	state string
	d     time.Duration
} {
	step := min(d/10, 50*time.Millisecond)
	return []struct {
		state string
		d     time.Duration
	}{{JobDispatching, step}, {JobSubmitting, step}, {JobRunning, d - 2*step}}
}

func detail(status int, msg string) *apiError {
	return &apiError{Status: status, Msg: msg, Detail: true}
}

func (s *Server) submitJob(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := decodeJSON(r, &body); err != nil {
		var ae *apiError
		if errors.As(err, &ae) {
			err = detail(http.StatusUnprocessableEntity, ae.Msg)
		}
		writeError(w, err)
		return
	}
	program := "blastn"
	if v, ok := body["program"]; ok {
		p, ok := v.(string)
		if !ok || p == "" {
			writeError(w, detail(http.StatusUnprocessableEntity, "program must be a non-empty string"))
			return
		}
		program = p
	}
	j, err := s.jobs.submit(r.Context(), program)
	if err != nil {
		writeError(w, detail(http.StatusInternalServerError, err.Error()))
		return
	}
	writeJSON(w, http.StatusAccepted, j)
}

func (s *Server) jobStatus(w http.ResponseWriter, r *http.Request, id string) {
	j, err := s.jobs.get(r.Context(), id)
	if err != nil {
		writeJobError(w, id, err)
		return
	}
	writeJSON(w, http.StatusOK, j)
}

func (s *Server) listJobs(w http.ResponseWriter, r *http.Request) {
	js, err := s.jobs.list(r.Context())
	if err != nil {
		writeError(w, detail(http.StatusInternalServerError, err.Error()))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"jobs": js, "count": len(js)})
}

func (s *Server) cancelJob(w http.ResponseWriter, r *http.Request, id string) {
	j, err := s.jobs.cancel(r.Context(), id)
	if err != nil {
		writeJobError(w, id, err)
		return
	}
	writeJSON(w, http.StatusOK, j)
}

func writeJobError(w http.ResponseWriter, id string, err error) {
	switch {
	case errors.Is(err, errNoJob):
		writeError(w, detail(http.StatusNotFound, "job "+id+" not found"))
	case errors.Is(err, errJobDone):
		writeError(w, detail(http.StatusConflict, "job "+id+" already finished"))
	default:
		writeError(w, detail(http.StatusInternalServerError, err.Error()))
	}
}

func statusURL(id string) string { return "/v1/jobs/" + id + "/status" }
