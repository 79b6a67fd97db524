package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// A process that ends restartLimit times within restartWindow is not started again (a crash
// loop): the supervisor ends, naming it.
const (
	restartLimit  = 5
	restartWindow = time.Minute
	restartDelay  = 100 * time.Millisecond
	redisPoll     = 200 * time.Millisecond
)

// ProcessesFile is the file in the state directory where a running supervisor names its
// processes (Processes, as JSON), rewritten whenever one is started again and removed by Stop:
// how `osctl stress --nemesis` finds what to kill or pause from --state-dir alone.
const ProcessesFile = "sandbox-processes.json"

// Processes is the content of ProcessesFile.
type Processes struct {
	// Supervisor is the supervising process (osctl sandbox up); every other process here is its
	// child.
	Supervisor int       `json:"supervisor_pid"`
	Replicas   []Process `json:"replicas"`
	Redis      []Process `json:"redis_servers,omitempty"`
	// Restarts is how many times a replica or redis-server was started again.
	Restarts int  `json:"restarts"`
	Restart  bool `json:"restart"`
	// Locking and LockTTLMs are the replicas' lock mode and TTL (absent from an older sandbox's
	// file).
	Locking   Locking `json:"locking,omitempty"`
	LockTTLMs int64   `json:"lock_ttl_ms,omitempty"`
}

// ReadProcesses reads the ProcessesFile of a running sandbox's state directory.
func ReadProcesses(dir string) (Processes, error) {
	var p Processes
	b, err := os.ReadFile(filepath.Join(dir, ProcessesFile))
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return p, fmt.Errorf("%s: %v", filepath.Join(dir, ProcessesFile), err)
	}
	return p, nil
}

// watchReplica waits for replica r to end; with Restart it starts it again on its socket.
func (s *Supervisor) watchReplica(r *replicaProc) {
	for {
		<-r.Done()
		why := &ExitError{Process: r.process(), Err: r.Err()}
		if !s.cfg.Restart || !s.mayRestart() {
			s.end(why)
			return
		}
		select {
		case <-s.done:
			return
		case <-time.After(restartDelay):
		}
		s.mu.Lock()
		if s.ended {
			s.mu.Unlock()
			return
		}
		nr, err := s.spawnReplica(r.index, r.url, r.lf)
		if err == nil {
			s.replicas[r.index] = nr
		}
		s.mu.Unlock()
		if err != nil {
			s.end(why)
			return
		}
		s.cfg.Logf("%v; started it again on %s (pid %d)", why, nr.url, nr.Pid())
		s.writeProcesses()
		r = nr
	}
}

// watchRedis polls the started redis-servers; one that ended is started again on its port
// (with Restart) or ends the supervisor.
func (s *Supervisor) watchRedis() {
	tick := time.NewTicker(redisPoll)
	defer tick.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-tick.C:
		}
		s.mu.Lock()
		var dead *ExitError
		var restarted []string
		for _, srv := range s.servers {
			if s.ended || srv.Alive() {
				continue
			}
			why := &ExitError{Process: serverProcess(srv)}
			if !s.cfg.Restart || !s.mayRestartLocked() {
				dead = why
				break
			}
			if err := srv.Restart(context.Background()); err != nil {
				dead = why
				break
			}
			restarted = append(restarted, fmt.Sprintf("%v; started it again on the same port, without its data (pid %d)", why, srv.Pid()))
		}
		s.mu.Unlock()
		if dead != nil {
			s.end(dead)
			return
		}
		for _, line := range restarted {
			s.cfg.Logf("%s", line)
		}
		if len(restarted) > 0 {
			s.writeProcesses()
		}
	}
}

// mayRestart records a restart and reports whether the crash-loop limit still allows it.
func (s *Supervisor) mayRestart() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mayRestartLocked()
}

func (s *Supervisor) mayRestartLocked() bool {
	now := time.Now()
	recent := s.restarts[:0]
	for _, t := range s.restarts {
		if now.Sub(t) < restartWindow {
			recent = append(recent, t)
		}
	}
	s.restarts = append(recent, now)
	if len(s.restarts) > restartLimit {
		return false
	}
	s.restartCount++
	return true
}

// Restarts is how many times a process was started again.
func (s *Supervisor) Restarts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restartCount
}

// writeProcesses writes ProcessesFile (temp file and rename, so a reader never sees half).
func (s *Supervisor) writeProcesses() {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	p := Processes{Supervisor: os.Getpid(), Restarts: s.restartCount, Restart: s.cfg.Restart,
		Locking: s.cfg.Locking, LockTTLMs: s.cfg.LockTTL.Milliseconds()}
	for _, r := range s.replicas {
		p.Replicas = append(p.Replicas, r.process())
	}
	for _, srv := range s.servers {
		p.Redis = append(p.Redis, serverProcess(srv))
	}
	s.mu.Unlock()
	b, _ := json.MarshalIndent(p, "", "  ")
	path := filepath.Join(s.cfg.Dir, ProcessesFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		s.cfg.Logf("writing %s: %v", path, err)
		return
	}
	if err := os.Rename(tmp, path); err != nil {
		s.cfg.Logf("writing %s: %v", path, err)
	}
}

func (s *Supervisor) removeProcesses() {
	_ = os.Remove(filepath.Join(s.cfg.Dir, ProcessesFile))
}
