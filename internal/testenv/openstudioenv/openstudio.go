// Package openstudioenv runs the real OpenStudio Server v3.7.0 (upstream's server/ Rails app,
// unmodified, from third_party/) on this machine in the process model of its Helm chart, for
// osctl's tests and for a person (cmd/openstudio-server): per web replica a Passenger app server
// and a Resque worker on analysis_wrappers, one background,analyses worker, one simulations
// worker, Redis, and FerretDB on SQLite for MongoDB. Each replica's TMPDIR is on another file
// system than the shared directory, as a pod's local /tmp is to NFS. Every process is stopped by
// its pid. docs/migration/real-server.md says what differs from a production deployment.
package openstudioenv

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Options configure one environment. Zero fields take the defaults their comments name.
type Options struct {
	// Dir holds everything: the app, the shared directory (Volume), the logs, the database. It
	// must exist. The replicas' TMPDIRs go under TmpRoot instead.
	Dir string
	// Root is osctl's module root (third_party/, contrib/); empty asks `go env GOMOD`.
	Root string
	// Replicas is the number of web replicas (default 3).
	Replicas int
	// Patched applies contrib/rails/openstudio-server-v3.7.0.patch with osctl_lock.rb.
	Patched bool
	// TmpRoot is where each replica's TMPDIR is made (default /dev/shm); it must be on another
	// file system than Dir.
	TmpRoot string
	// PoolSize is Passenger's --max-pool-size per replica (default 2; upstream's MAX_POOL is 16
	// per pod) and QueueSize its --max-request-queue-size (default 50, upstream's MAX_REQUESTS).
	PoolSize, QueueSize int
	// FerretDB is the ferretdb binary (default: $OSCTL_FERRETDB, else scripts/ferretdb-build.sh's
	// cache).
	FerretDB string
	// Env is added to every Ruby process's environment (for example REDLOCK_URLS).
	Env []string
	// Logf, when set, reports progress.
	Logf func(format string, a ...any)
}

// Server is a running environment.
type Server struct {
	// Targets are the web replicas' base URLs, for `osctl stress --target`.
	Targets []string
	// Volume is the shared directory that holds server/: `osctl stress --state-dir`.
	Volume string
	// Dir is the environment's directory (logs under Dir/log).
	Dir string
	// RedisURL is Resque's Redis (and the patched app's lock); Mongo is FerretDB's host:port.
	RedisURL string
	Mongo    string

	opts   Options
	app    string
	tmp    string
	ports  []int
	procs  []*component
	stopFn []func() error
}

// Start assembles and boots an environment. On error everything it started is stopped.
func Start(ctx context.Context, o Options) (*Server, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Server{opts: o, Dir: o.Dir, Volume: filepath.Join(o.Dir, "volume")}
	if err := s.start(ctx); err != nil {
		_ = s.Stop()
		return nil, err
	}
	return s, nil
}

func (o Options) withDefaults() (Options, error) {
	if o.Dir == "" {
		return o, errors.New("openstudioenv: Options.Dir is required")
	}
	if o.Replicas <= 0 {
		o.Replicas = 3
	}
	if o.TmpRoot == "" {
		o.TmpRoot = "/dev/shm"
	}
	if o.PoolSize <= 0 {
		o.PoolSize = 2
	}
	if o.QueueSize <= 0 {
		o.QueueSize = 50
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.Root == "" {
		root, err := moduleRoot()
		if err != nil {
			return o, err
		}
		o.Root = root
	}
	if o.FerretDB == "" {
		o.FerretDB = FerretDBPath()
	}
	if err := Check(o.FerretDB); err != nil {
		return o, err
	}
	if err := differentFS(o.Dir, o.TmpRoot); err != nil {
		return o, err
	}
	return o, nil
}

// differentFS checks that TMPDIRs under tmpRoot are on another file system than dir: Paperclip's
// move of an upload is then a copy into a truncated target, as on a pod with NFS.
func differentFS(dir, tmpRoot string) error {
	var a, b syscall.Stat_t
	if err := syscall.Stat(dir, &a); err != nil {
		return fmt.Errorf("openstudioenv: %v", err)
	}
	if err := syscall.Stat(tmpRoot, &b); err != nil {
		return fmt.Errorf("openstudioenv: TMPDIR root %s: %v (set TmpRoot to a directory on another file system than %s)", tmpRoot, err, dir)
	}
	if a.Dev == b.Dev {
		return fmt.Errorf("openstudioenv: %s and the TMPDIR root %s are on one file system; put them on two (a tmpfs such as /dev/shm for TMPDIR)", dir, tmpRoot)
	}
	return nil
}

func (s *Server) start(ctx context.Context) error {
	o := s.opts
	for _, d := range []string{"log", "volume", "worker", "db", "run"} {
		if err := os.MkdirAll(filepath.Join(o.Dir, d), 0o755); err != nil {
			return err
		}
	}
	tmp, err := os.MkdirTemp(o.TmpRoot, "osctl-openstudio-")
	if err != nil {
		return err
	}
	s.tmp = tmp
	s.stopFn = append(s.stopFn, func() error { return os.RemoveAll(tmp) })
	began := time.Now()
	if s.app, err = assemble(o.Root, o.Dir, o.Patched); err != nil {
		return err
	}
	o.Logf("assembled OpenStudio Server v3.7.0 (patched: %v) in %s", o.Patched, s.app)
	if err := s.startStores(ctx); err != nil {
		return err
	}
	if err := s.rake("create-indexes", "db:mongoid:create_indexes"); err != nil {
		return err
	}
	if err := s.startRuby(); err != nil {
		return err
	}
	if err := s.waitReady(ctx, 5*time.Minute); err != nil {
		return err
	}
	o.Logf("OpenStudio Server up in %s: %d replicas, %d processes", time.Since(began).Round(time.Second), o.Replicas, len(s.procs))
	return nil
}

// Stop stops every process by its pid (the Ruby processes at once, then the stores) and removes
// the TMPDIRs. The directory stays for inspection.
func (s *Server) Stop() error {
	errs := make([]error, len(s.procs))
	var wg sync.WaitGroup
	for i, p := range s.procs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = p.stop(20 * time.Second) }()
	}
	wg.Wait()
	s.procs = nil
	for i := len(s.stopFn) - 1; i >= 0; i-- {
		if err := s.stopFn[i](); err != nil {
			errs = append(errs, err)
		}
	}
	s.stopFn = nil
	return errors.Join(errs...)
}

// Logs returns the last lines of every process's log, for a failed test.
func (s *Server) Logs() string {
	out := ""
	for _, p := range s.procs {
		out += fmt.Sprintf("==> %s <==\n%s\n", p.log, p.tail())
	}
	return out
}

// TargetURLs parses Targets.
func (s *Server) TargetURLs() []*url.URL {
	var out []*url.URL
	for _, t := range s.Targets {
		u, _ := url.Parse(t)
		out = append(out, u)
	}
	return out
}
