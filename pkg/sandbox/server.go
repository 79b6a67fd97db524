package sandbox

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Status is the answer of GET /status: it says this is the sandbox (so a stress run may send
// start to it) and how it is configured.
type Status struct {
	Status   string    `json:"status"`
	Sandbox  bool      `json:"sandbox"`
	Replica  int       `json:"replica"`
	Replicas int       `json:"replicas"`
	Locking  Locking   `json:"locking"`
	Queue    QueueMode `json:"queue"`
	// MaxActive is the ceiling of the whole service, whatever the queue mode enforces.
	// It is left out with JobsConfig.HideCeiling, as the real job API tells no client its ceiling.
	MaxActive int `json:"max_active,omitempty"`
	// ReplicaMaxActive is how many jobs this replica admits by itself (local: the ceiling; split:
	// its share); absent with the shared queue, which admits across replicas.
	ReplicaMaxActive int `json:"replica_max_active,omitempty"`
	// JobDuration is how long a job runs on this replica (JobDuration stretched by the skew).
	JobDuration string `json:"job_duration"`
	// BackgroundInterval is how long the idle background worker sleeps between polls.
	BackgroundInterval string `json:"background_interval"`
	// ZipRewrite says whether extraction sort-rewrites seed zips not in name order.
	ZipRewrite bool `json:"zip_rewrite"`
	// DropCreates is the fraction of analysis and data point creates answered but not stored.
	DropCreates float64 `json:"drop_creates"`
	// Worker is what the background worker does.
	Worker WorkerStatus `json:"worker"`
}

// Server is one sandbox replica: an http.Handler over two imitated services, the OpenStudio
// Server (over the shared state directory, with its background worker) and elb-openapi's job
// API (with its dispatcher), both running until the context given to New ends. The Server keeps
// what they share: the configuration, GET /status, the routing and the back-pressure in front.
type Server struct {
	cfg     Config
	studio  *openStudioService
	jobs    *jobsService
	handler http.Handler
}

// New prepares a replica over cfg.StateDir (creating server/ and db/ in it) and starts its job
// dispatcher and its background worker, which run until ctx ends.
func New(ctx context.Context, cfg Config) (*Server, error) { return newServer(ctx, cfg, realClock{}) }

// newServer is New with the job dispatcher on clk.
func newServer(ctx context.Context, cfg Config, clk clock) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	abs, err := filepath.Abs(cfg.StateDir)
	if err != nil {
		return nil, err
	}
	cfg.StateDir = abs
	for _, d := range []string{"server/assets/analyses", "server/assets/data_points", "server/analyses", "db"} {
		if err := os.MkdirAll(filepath.Join(abs, d), 0o755); err != nil {
			return nil, fmt.Errorf("preparing the state directory: %v", err)
		}
	}
	s := &Server{cfg: cfg}
	if s.studio, err = newOpenStudioService(cfg, time.Now); err != nil {
		return nil, err
	}
	if s.jobs, err = newJobsService(ctx, cfg, clk); err != nil {
		return nil, err
	}
	go s.jobs.run(ctx)
	s.studio.start(ctx)
	s.handler = newGate(cfg.MaxPool, cfg.MaxRequests).wrap(http.HandlerFunc(s.route))
	return s, nil
}

// Handler returns the replica's HTTP handler (with Passenger-like back-pressure in front).
func (s *Server) Handler() http.Handler { return s.handler }

// Status returns what GET /status answers.
func (s *Server) Status() Status {
	st := Status{Status: "ok", Sandbox: true, Replica: s.cfg.Replica, Replicas: s.cfg.Replicas, Locking: s.cfg.Locking, Queue: s.cfg.Queue,
		MaxActive: s.cfg.MaxActive, ReplicaMaxActive: s.cfg.replicaMaxActive(), JobDuration: s.cfg.replicaJobDuration().String(),
		BackgroundInterval: s.cfg.BackgroundInterval.String(), ZipRewrite: !s.cfg.NoZipRewrite, DropCreates: s.cfg.DropCreates,
		Worker: s.studio.worker.status(context.Background())}
	if s.cfg.Jobs.HideCeiling {
		st.MaxActive, st.ReplicaMaxActive = 0, 0
	}
	return st
}

// route is a request's path, split into unescaped segments (the last without .json).
type route struct {
	r    *http.Request
	segs []string
}

// seg returns the i-th segment.
func (rt route) seg(i int) string { return rt.segs[i] }

// is reports whether the request is method (GET also matching HEAD) on a path of exactly parts,
// where "*" matches any segment.
func (rt route) is(method string, parts ...string) bool {
	if len(rt.segs) != len(parts) {
		return false
	}
	for i, p := range parts {
		if p != "*" && p != rt.segs[i] {
			return false
		}
	}
	return rt.r.Method == method || (method == http.MethodGet && rt.r.Method == http.MethodHead)
}

// route dispatches a request by its path to the service that serves it; the last segment may
// end in .json.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	segs, ok := splitPath(r.URL.EscapedPath())
	if !ok {
		writeError(w, badRequest("bad path %q", r.URL.EscapedPath()))
		return
	}
	rt := route{r: r, segs: segs}
	switch {
	case rt.is(http.MethodGet, "status"):
		writeJSON(w, http.StatusOK, s.Status())
	case rt.is(http.MethodGet, "status", "failed_jobs"):
		s.studio.failedJobs(w, r)
	case s.studio.serve(w, rt):
	case len(segs) > 0 && segs[0] == "v1":
		s.jobs.jobAPI(w, r, segs)
	case rt.is(http.MethodGet, "healthz"):
		s.jobs.healthz(w)
	case rt.is(http.MethodGet, "status", "requests"):
		s.jobs.jobRequests(w)
	default:
		writeError(w, &apiError{Status: http.StatusNotFound, Msg: fmt.Sprintf("no route matches %s %s", r.Method, r.URL.Path)})
	}
}

// splitPath splits an escaped path into unescaped segments and drops a .json suffix from the last.
func splitPath(escaped string) ([]string, bool) {
	escaped = strings.Trim(escaped, "/")
	if escaped == "" {
		return nil, true
	}
	raw := strings.Split(escaped, "/")
	out := make([]string, len(raw))
	for i, p := range raw {
		u, err := url.PathUnescape(p)
		if err != nil {
			return nil, false
		}
		out[i] = u
	}
	out[len(out)-1] = strings.TrimSuffix(out[len(out)-1], ".json")
	return out, true
}
