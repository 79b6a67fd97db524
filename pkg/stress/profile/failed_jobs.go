package profile

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// The class of the job that extracts an analysis's seed zip.
const classInitializeAnalysis = "ResqueJobs::InitializeAnalysis"

// FailedExtractions reads a sandbox target's GET /status/failed_jobs (its Resque failure list)
// and returns the InitializeAnalysis jobs of the analyses keep accepts.
func FailedExtractions(ctx context.Context, c Doer, base *url.URL, keep func(analysis string) bool) ([]history.FailedJob, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	a, err := Exchange(ctx, c, http.MethodGet, JoinPath(base, "/status/failed_jobs"), nil, nil, 16<<20)
	if err != nil {
		return nil, err
	}
	if a.Status != http.StatusOK {
		return nil, fmt.Errorf("GET /status/failed_jobs answered %d", a.Status)
	}
	var raw []resqueFailure
	if err := json.Unmarshal(a.Body, &raw); err != nil {
		return nil, fmt.Errorf("GET /status/failed_jobs: %v", err)
	}
	out := []history.FailedJob{}
	for _, f := range raw {
		if fj, ok := f.extraction(); ok && keep(fj.Analysis) {
			out = append(out, fj)
		}
	}
	return out, nil
}

// resqueFailure is one entry of Resque's failed list (resque 2.0.0 lib/resque/failure/redis.rb:
// failed_at, payload {class, args}, exception, error, backtrace, worker, queue), and run_at, which
// only the sandbox adds (when the worker began the job).
type resqueFailure struct {
	FailedAt  string `json:"failed_at"`
	RunAt     string `json:"run_at"`
	Exception string `json:"exception"`
	Error     string `json:"error"`
	Worker    string `json:"worker"`
	Queue     string `json:"queue"`
	Payload   struct {
		Class string `json:"class"`
		Args  []any  `json:"args"`
	} `json:"payload"`
}

// extraction is f as a failed job of the run, when it is an InitializeAnalysis: its args are
// Analysis#start's (analysis_type, analysis_id, job_id, options), so the analysis is the second.
func (f resqueFailure) extraction() (history.FailedJob, bool) {
	if f.Payload.Class != classInitializeAnalysis || len(f.Payload.Args) < 2 {
		return history.FailedJob{}, false
	}
	id, _ := f.Payload.Args[1].(string)
	if id == "" {
		return history.FailedJob{}, false
	}
	fj := history.FailedJob{Class: f.Payload.Class, Analysis: id, Worker: f.Worker, Exception: f.Exception, Error: f.Error, FailedAt: f.FailedAt}
	fj.RunAt, _ = time.Parse(time.RFC3339Nano, f.RunAt)
	return fj, true
}
