package sandbox

import (
	"context"
	"crypto/subtle"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// jobsService imitates elb-openapi's job API: the /v1/jobs routes (with /healthz and the
// sandbox's /status/requests) over a job store, and elb-openapi's dispatcher over that store,
// with its real triggers (a claim of the next queued job on a submit, when a submit thread
// exits, and on a tick every DispatchInterval) and its real bookkeeping: a finished job keeps its
// slot until a status read of it, or the watchdog, notices that it finished, and noticing starts
// nothing.
type jobsService struct {
	cfg   Config
	st    jobStore
	limit int           // active jobs the store admits: this replica's (local, split) or all of them (shared)
	dur   time.Duration // how long a job this replica claims runs
	clk   clock
	ctx   context.Context // the server's: submit threads and claims run on it
	reqs  requestLog

	mu      sync.Mutex
	threads map[string]chan struct{} // the live submit threads of this replica, closed to cancel
	live    atomic.Int64             // submit threads not yet returned, the claim at their exit included
}

func newJobsService(ctx context.Context, cfg Config, clk clock) (*jobsService, error) {
	s := &jobsService{cfg: cfg, clk: clk, ctx: ctx, dur: cfg.replicaJobDuration(), threads: map[string]chan struct{}{}}
	switch cfg.Queue {
	case QueueShared:
		s.st, s.limit = newSharedStore(cfg), cfg.MaxActive
	default:
		s.st, s.limit = newLocalStore(), cfg.replicaMaxActive()
	}
	return s, nil
}

// jobAPI serves /v1/...: the routes of elb-openapi's job API. An unknown path answers 404 and a
// known path with another method 405, both before the token is checked (as FastAPI routes
// first); every route then needs the token when one is configured.
func (s *jobsService) jobAPI(w http.ResponseWriter, r *http.Request, segs []string) {
	s.reqs.add(s.now())
	n := len(segs)
	get := r.Method == http.MethodGet || r.Method == http.MethodHead
	var h func()
	allow := ""
	switch {
	case n == 2 && segs[1] == "jobs":
		allow = "GET, POST"
		switch {
		case get:
			h = func() { s.listJobs(w, r) }
		case r.Method == http.MethodPost:
			h = func() { s.submitJob(w, r) }
		}
	case n == 4 && segs[1] == "jobs" && segs[3] == "status":
		allow = "GET"
		if get {
			h = func() { s.jobStatus(w, r, segs[2]) }
		}
	case n == 3 && segs[1] == "jobs":
		allow = "DELETE"
		if r.Method == http.MethodDelete {
			h = func() { s.deleteJob(w, r, segs[2]) }
		}
	}
	switch {
	case allow == "":
		fastAPIError(w, http.StatusNotFound, "Not Found")
	case h == nil:
		w.Header().Set("Allow", allow)
		fastAPIError(w, http.StatusMethodNotAllowed, "Method Not Allowed")
	case !s.authorized(r):
		fastAPIError(w, http.StatusUnauthorized, "missing or invalid "+TokenHeader)
	default:
		h()
	}
}

func (s *jobsService) authorized(r *http.Request) bool {
	want := s.cfg.Jobs.APIToken
	if want == "" {
		return true
	}
	got := r.Header.Get(TokenHeader)
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// healthz is the open liveness probe.
func (s *jobsService) healthz(w http.ResponseWriter) {
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok"})
}

// jobRequests is GET /status/requests.
func (s *jobsService) jobRequests(w http.ResponseWriter) {
	writeJSON(w, http.StatusOK, s.reqs.counts())
}
