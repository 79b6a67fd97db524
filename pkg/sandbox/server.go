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
	// WorkerInterval is how long the idle background worker sleeps between polls.
	WorkerInterval string `json:"worker_interval"`
	// ZipRewrite says whether extraction sort-rewrites seed zips not in name order.
	ZipRewrite bool `json:"zip_rewrite"`
	// DropCreates is the fraction of analysis and data point creates answered but not stored.
	DropCreates float64 `json:"drop_creates"`
	// Worker is what the background worker does.
	Worker WorkerStatus `json:"worker"`
}

// Server is one sandbox replica: an http.Handler over the shared state directory, and the job
// dispatcher and the background worker running until the context given to New ends.
type Server struct {
	cfg     Config
	db      store
	st      storage
	jobs    jobQueue
	gate    *gate
	layout  layout
	resque  resque
	worker  *worker
	handler http.Handler
	now     func() time.Time
}

// New prepares a replica over cfg.StateDir (creating server/ and db/ in it) and starts its job
// dispatcher and its background worker, which run until ctx ends.
func New(ctx context.Context, cfg Config) (*Server, error) {
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
	s := &Server{cfg: cfg, db: store{dir: filepath.Join(abs, "db")}, gate: newGate(cfg.MaxPool, cfg.MaxRequests), now: time.Now}
	l := layout{root: filepath.Join(abs, "server")}
	p := pacer{chunk: cfg.UploadChunk, delay: cfg.WriteDelay}
	switch cfg.Locking {
	case LockingNone:
		s.st = &plainStorage{l: l, p: p, hold: cfg.Hold, noRewrite: cfg.NoZipRewrite}
	case LockingLocal:
		s.st = &plainStorage{l: l, p: p, hold: cfg.Hold, mu: &keyedMutex{}, noRewrite: cfg.NoZipRewrite}
	case LockingRedlock:
		lk, err := newRedlockLeaser(cfg)
		if err != nil {
			return nil, err
		}
		s.st = &redlockStorage{l: l, p: p, hold: cfg.Hold, locks: lk, keyFn: lockKey, logf: cfg.Logf, noRewrite: cfg.NoZipRewrite}
	}
	s.layout, s.resque = l, newResque(cfg)
	s.worker = &worker{q: s.resque, queues: workerQueues, interval: cfg.WorkerInterval, wait: sleepCtx, perform: s.perform,
		name: workerName(workerQueues), logf: cfg.Logf}
	if s.jobs, err = newJobQueue(ctx, cfg, s.now); err != nil {
		return nil, err
	}
	go s.jobs.run(ctx)
	s.worker.busy.Store(true) // until its first look finds the queues empty
	go s.worker.run(ctx)
	s.handler = s.gate.wrap(http.HandlerFunc(s.route))
	return s, nil
}

// Handler returns the replica's HTTP handler (with Passenger-like back-pressure in front).
func (s *Server) Handler() http.Handler { return s.handler }

// Status returns what GET /status answers.
func (s *Server) Status() Status {
	st := Status{Status: "ok", Sandbox: true, Replica: s.cfg.Replica, Replicas: s.cfg.Replicas, Locking: s.cfg.Locking, Queue: s.cfg.Queue,
		MaxActive: s.cfg.MaxActive, ReplicaMaxActive: s.cfg.replicaMaxActive(), JobDuration: s.cfg.replicaJobDuration().String(),
		WorkerInterval: s.cfg.WorkerInterval.String(), ZipRewrite: !s.cfg.NoZipRewrite, DropCreates: s.cfg.DropCreates,
		Worker: s.worker.status(context.Background())}
	if s.cfg.Jobs.HideCeiling {
		st.MaxActive, st.ReplicaMaxActive = 0, 0
	}
	return st
}

// route dispatches a request by its path; the last segment may end in .json.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	segs, ok := splitPath(r.URL.EscapedPath())
	if !ok {
		writeError(w, badRequest("bad path %q", r.URL.EscapedPath()))
		return
	}
	n := len(segs)
	seg := func(i int) string { return segs[i] }
	is := func(method string, parts ...string) bool {
		if n != len(parts) {
			return false
		}
		for i, p := range parts {
			if p != "*" && p != segs[i] {
				return false
			}
		}
		return r.Method == method || (method == http.MethodGet && r.Method == http.MethodHead)
	}
	switch {
	case is(http.MethodGet, "status"):
		writeJSON(w, http.StatusOK, s.Status())
	case is(http.MethodPost, "projects"):
		s.createProject(w, r)
	case is(http.MethodGet, "projects", "*"):
		s.getProject(w, seg(1))
	case is(http.MethodPost, "projects", "*", "analyses"):
		s.createAnalysis(w, r, seg(1))
	case is(http.MethodGet, "analyses", "*"):
		s.getAnalysis(w, seg(1))
	case is(http.MethodDelete, "analyses", "*"):
		s.deleteAnalysis(w, r, seg(1))
	case is(http.MethodGet, "analyses", "*", "status"):
		s.analysisStatus(w, seg(1))
	case is(http.MethodPost, "analyses", "*", "upload"):
		s.uploadZip(w, r, seg(1))
	case is(http.MethodPost, "analyses", "*", "action"):
		s.action(w, r, seg(1))
	case is(http.MethodPost, "analyses", "*", "data_points"):
		s.createDataPoint(w, r, seg(1))
	case is(http.MethodGet, "data_points", "*"):
		s.getDataPoint(w, seg(1))
	case is(http.MethodPost, "data_points", "*", "upload_file"):
		s.uploadResult(w, r, seg(1))
	case is(http.MethodDelete, "data_points", "*", "result_files"):
		s.deleteResultFiles(w, seg(1))
	case n > 0 && segs[0] == "v1":
		s.jobAPI(w, r, segs)
	case is(http.MethodGet, "healthz"):
		s.healthz(w)
	case is(http.MethodGet, "status", "requests"):
		s.jobRequests(w)
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
