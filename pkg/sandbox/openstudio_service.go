package sandbox

import (
	"context"
	"net/http"
	"path/filepath"
	"time"
)

// openStudioService imitates OpenStudio Server: its projects, analyses and data points (records
// in the db/ of the shared state directory), the zips and result files its Rails app keeps
// under server/, and its Resque-like background worker.
type openStudioService struct {
	documents
	cfg    Config
	st     storage
	layout layout
	resque resque
	worker *worker
}

// documents are the service's Mongo documents (its db/ directory): finding them as Mongoid does,
// the jobs of an analysis, its data points, and which creates --drop-creates loses.
type documents struct {
	db  store
	now func() time.Time
	// drop is the fraction of creates that are answered but never stored (Config.DropCreates).
	drop float64
}

// newOpenStudioService prepares the service over cfg.StateDir (absolute, with server/ and db/
// in it) with the storage of cfg.Locking; start starts its worker.
func newOpenStudioService(cfg Config, now func() time.Time) (*openStudioService, error) {
	s := &openStudioService{cfg: cfg, documents: documents{db: store{dir: filepath.Join(cfg.StateDir, "db")}, now: now, drop: cfg.DropCreates}}
	l := layout{root: filepath.Join(cfg.StateDir, "server")}
	p := pacer{chunk: cfg.UploadChunk, delay: cfg.WriteDelay}
	switch cfg.Locking {
	case LockingNone:
		s.st = &plainStorage{l: l, p: p, hold: cfg.Hold, noRewrite: cfg.NoZipRewrite}
	case LockingLocal:
		s.st = &plainStorage{l: l, p: p, hold: cfg.Hold, locks: &processLocks{}, noRewrite: cfg.NoZipRewrite}
	case LockingRedlockNoFence:
		locks, err := newRedlockRbLocks(cfg)
		if err != nil {
			return nil, err
		}
		s.st = &plainStorage{l: l, p: p, hold: cfg.Hold, locks: locks, noRewrite: cfg.NoZipRewrite}
	case LockingRedlock:
		lk, err := newRedlockLeaser(cfg)
		if err != nil {
			return nil, err
		}
		s.st = &redlockStorage{l: l, p: p, hold: cfg.Hold, locks: lk, keyFn: lockKey, logf: cfg.Logf, noRewrite: cfg.NoZipRewrite}
	}
	s.layout, s.resque = l, newResque(cfg)
	s.worker = &worker{q: s.resque, queues: workerQueues, interval: cfg.BackgroundInterval, wait: sleepCtx, perform: s.perform,
		name: workerName(workerQueues), logf: cfg.Logf}
	return s, nil
}

// start runs the background worker until ctx ends.
func (s *openStudioService) start(ctx context.Context) {
	s.worker.busy.Store(true) // until its first look finds the queues empty
	go s.worker.run(ctx)
}

// serve serves the request if it is one of the service's routes (/projects, /analyses,
// /data_points), and reports whether it was.
func (s *openStudioService) serve(w http.ResponseWriter, rt route) bool {
	r, is, seg := rt.r, rt.is, rt.seg
	switch {
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
	default:
		return false
	}
	return true
}
