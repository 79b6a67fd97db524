package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/osctl/osctl/pkg/redisproc"
)

// SupervisorConfig configures a Supervisor: N replica processes over one state directory, and
// the Redis masters they share.
type SupervisorConfig struct {
	// Replicas is how many replica processes to start. The default is 1.
	Replicas int
	// Dir is the shared state directory (absolute); it is created if missing. Required.
	Dir string
	// PortBase is the first replica's port on 127.0.0.1: replica i listens on PortBase+i. 0 gives
	// every replica a free port.
	PortBase int
	// RedisURLs are the Redis masters to hand to the replicas. Empty means start RedisMasters
	// redis-server processes (pkg/redisproc) under Dir/redis, and stop them with the replicas.
	RedisURLs []string
	// RedisMasters is how many redis-server processes to start when RedisURLs is empty. The
	// default is 1.
	RedisMasters int
	// Command builds replica spec.Index's process, which must serve the sandbox on the
	// listening socket it inherits as file descriptor spec.ListenFD. The supervisor adds that
	// socket, a process group of its own and a death signal (SIGKILL when the supervising process
	// dies), and Output as stdout and stderr where the command sets none. When Command is nil,
	// Executable is run with Args(spec), in this process's environment plus Env.
	Command    func(spec ReplicaSpec) *exec.Cmd
	Executable string
	Args       func(spec ReplicaSpec) []string
	Env        []string
	// Output receives the replicas' stdout and stderr where their command sets none. The
	// default discards them.
	Output io.Writer
	// Logf receives one line per process started or stopped. The default discards them.
	Logf func(format string, args ...any)
	// ReadyTimeout bounds the wait for every replica to answer GET /status. The default is 30s.
	ReadyTimeout time.Duration
	// StopGrace is how long Stop waits after SIGTERM before it kills a replica. The default is 5s.
	StopGrace time.Duration
	// Restart starts a replica or a started redis-server that ends after Start again, as a
	// Deployment's controller would: a replica on its same listening socket (so on the same
	// port), a redis-server on the same port without its data (it never persists). Done is then
	// closed only by Stop, or when one process has ended restartLimit (5) times within a minute. Without
	// Restart, Done is closed when any of them ends.
	Restart bool
	// Locking and LockTTL are the replicas' lock mode and TTL, written in ProcessesFile for the
	// holder faults of a stress run (informational: the replicas take theirs from Command).
	Locking Locking
	LockTTL time.Duration
}

// DefaultSupervisorConfig returns the supervisor's defaults (those of `osctl sandbox up`).
func DefaultSupervisorConfig() SupervisorConfig {
	return SupervisorConfig{Replicas: 1, RedisMasters: 1, ReadyTimeout: 30 * time.Second, StopGrace: 5 * time.Second, Restart: true}
}

func (c SupervisorConfig) withDefaults() SupervisorConfig {
	d := DefaultSupervisorConfig()
	orDefault(&c.Replicas, d.Replicas)
	orDefault(&c.RedisMasters, d.RedisMasters)
	orDefault(&c.ReadyTimeout, d.ReadyTimeout)
	orDefault(&c.StopGrace, d.StopGrace)
	if c.Logf == nil {
		c.Logf = func(string, ...any) {}
	}
	return c
}

func (c SupervisorConfig) validate() error {
	switch {
	case c.Replicas < 1 || c.RedisMasters < 1:
		return fmt.Errorf("replicas (%d) and Redis masters (%d) must be at least 1", c.Replicas, c.RedisMasters)
	case c.Dir == "":
		return errors.New("no state directory given")
	case c.Command == nil && c.Executable == "":
		return errors.New("no replica command given")
	case c.PortBase != 0 && (c.PortBase < 1 || c.PortBase+c.Replicas-1 > 65535):
		return fmt.Errorf("port base %d with %d replicas is outside 1 to 65535", c.PortBase, c.Replicas)
	}
	return nil
}

// ReplicaSpec is what a replica's command needs to know.
type ReplicaSpec struct {
	// Index is the replica's index, 0 to Replicas-1.
	Index    int
	Replicas int
	// Dir is the shared state directory; Namespace separates this run's Redis keys.
	Dir       string
	Namespace string
	// RedisURLs are the Redis masters (with their passwords: keep them out of the process list).
	RedisURLs []string
	// ListenFD is the inherited listening socket's file descriptor (3).
	ListenFD int
}

// Process is one process a Supervisor started.
type Process struct {
	// Kind is "replica" or "redis-server".
	Kind string `json:"kind"`
	// Index is a replica's index (0 for a redis-server).
	Index int `json:"index"`
	// Addr is a replica's base URL (http://127.0.0.1:PORT) or a redis-server's 127.0.0.1:PORT.
	Addr string `json:"addr"`
	Pid  int    `json:"pid"`
}

// String names the process as the supervisor's errors do: "replica 1 (pid 42)".
func (p Process) String() string {
	if p.Kind == "replica" {
		return fmt.Sprintf("replica %d (pid %d)", p.Index, p.Pid)
	}
	return fmt.Sprintf("%s %s (pid %d)", p.Kind, p.Addr, p.Pid)
}

// ExitError says which process ended on its own.
type ExitError struct {
	Process Process
	// AtStart is set when a replica ended before it answered GET /status.
	AtStart bool
	// Err is a replica's wait error (nil for exit status 0, and for a redis-server).
	Err error
}

func (e *ExitError) Error() string {
	switch {
	case e.AtStart:
		return fmt.Sprintf("replica %d exited at start (%v)", e.Process.Index, exitText(e.Err))
	case e.Process.Kind == "replica":
		return fmt.Sprintf("%v exited (%v)", e.Process, exitText(e.Err))
	}
	return fmt.Sprintf("%v exited", e.Process)
}

func (e *ExitError) Unwrap() error { return e.Err }

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// Supervisor starts and stops a sandbox's processes: its replicas and the redis-servers it
// starts. Every method is safe for concurrent use.
type Supervisor struct {
	cfg SupervisorConfig
	ns  string

	mu           sync.Mutex
	replicas     []*replicaProc
	servers      []*redisproc.Server
	urls         []string
	exit         *ExitError
	ended        bool
	restarts     []time.Time // when processes were last started again, for restartLimit
	restartCount int
	done         chan struct{}
	stopOnce     sync.Once
}

// NewSupervisor returns a supervisor of cfg; Start starts its processes.
func NewSupervisor(cfg SupervisorConfig) *Supervisor {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return &Supervisor{cfg: cfg.withDefaults(), ns: hex.EncodeToString(b), done: make(chan struct{})}
}

// Start starts the Redis masters (unless given), then every replica, and returns once every
// replica answers GET /status. After it returns nil, Done is closed when a replica or a
// started redis-server ends. On an error (an *ExitError when a replica ended at start) it has
// stopped whatever it started.
func (s *Supervisor) Start(ctx context.Context) (err error) {
	c := s.cfg
	if err := c.validate(); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			s.Stop()
		}
	}()
	if err := s.startRedis(ctx); err != nil {
		return err
	}
	for i := 0; i < c.Replicas; i++ {
		r, err := s.startReplica(i)
		if err != nil {
			return err
		}
		s.mu.Lock()
		s.replicas = append(s.replicas, r)
		s.mu.Unlock()
	}
	if err := s.waitReady(ctx); err != nil {
		return err
	}
	s.watch()
	return nil
}

// startRedis takes the given Redis URLs, or starts RedisMasters redis-servers.
func (s *Supervisor) startRedis(ctx context.Context) error {
	if len(s.cfg.RedisURLs) > 0 {
		s.urls = append([]string(nil), s.cfg.RedisURLs...)
		return nil
	}
	// Every replica's background worker takes its jobs from Redis, whatever the modes.
	if _, err := redisproc.Path(); err != nil {
		return fmt.Errorf("the sandbox needs Redis for its background workers: %w", err)
	}
	rdir := filepath.Join(s.cfg.Dir, "redis")
	if err := os.MkdirAll(rdir, 0o755); err != nil {
		return err
	}
	for i := 0; i < s.cfg.RedisMasters; i++ {
		srv, err := redisproc.Start(ctx, redisproc.Options{Dir: rdir})
		if err != nil {
			return fmt.Errorf("starting redis-server: %v", err)
		}
		s.mu.Lock()
		s.servers = append(s.servers, srv)
		s.urls = append(s.urls, srv.URL())
		s.mu.Unlock()
		s.cfg.Logf("started redis-server %s (pid %d)", srv.URL(), srv.Pid())
	}
	return nil
}

// watch follows every replica and started redis-server (supervisor_restart.go).
func (s *Supervisor) watch() {
	for _, r := range s.replicas {
		go s.watchReplica(r)
	}
	if len(s.servers) > 0 {
		go s.watchRedis()
	}
	s.writeProcesses()
}

// end closes Done once, recording why (nil: Stop).
func (s *Supervisor) end(why *ExitError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	s.ended, s.exit = true, why
	close(s.done)
}

// Done is closed when a process ends on its own after Start, or when Stop is called.
func (s *Supervisor) Done() <-chan struct{} { return s.done }

// Wait blocks until Done and returns the *ExitError of the process that ended, or nil when Stop
// came first.
func (s *Supervisor) Wait() error {
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exit == nil {
		return nil
	}
	return s.exit
}

// Stop stops every replica (SIGTERM, then SIGKILL after StopGrace) and then every redis-server
// it started, by pid, and waits for them. The state directory is kept. Later calls do nothing.
func (s *Supervisor) Stop() {
	s.stopOnce.Do(func() {
		s.end(nil)
		s.mu.Lock()
		replicas, servers := s.replicas, s.servers
		s.mu.Unlock()
		stopReplicas(replicas, s.cfg.StopGrace)
		for _, r := range replicas {
			r.lf.Close()
		}
		s.removeProcesses()
		if len(replicas) > 0 {
			s.cfg.Logf("stopped %d replica(s); state kept in %s", len(replicas), s.cfg.Dir)
		}
		for _, srv := range servers {
			srv.Stop()
		}
		if len(servers) > 0 {
			s.cfg.Logf("stopped %d redis-server process(es)", len(servers))
		}
	})
}

// Namespace is the Redis key namespace of this run, handed to every replica.
func (s *Supervisor) Namespace() string { return s.ns }

// Dir is the shared state directory.
func (s *Supervisor) Dir() string { return s.cfg.Dir }

// RedisURLs are the Redis masters' URLs, with their passwords.
func (s *Supervisor) RedisURLs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.urls...)
}

// Replicas are the replicas started so far, in index order.
func (s *Supervisor) Replicas() []Process {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Process, 0, len(s.replicas))
	for _, r := range s.replicas {
		out = append(out, r.process())
	}
	return out
}

// Running names the processes started and not yet ended: replicas first, then redis-servers.
func (s *Supervisor) Running() []Process {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Process
	for _, r := range s.replicas {
		if r.alive() {
			out = append(out, r.process())
		}
	}
	for _, srv := range s.servers {
		if srv.Alive() {
			out = append(out, serverProcess(srv))
		}
	}
	return out
}

func serverProcess(srv *redisproc.Server) Process {
	return Process{Kind: "redis-server", Addr: srv.Addr, Pid: srv.Pid()}
}
