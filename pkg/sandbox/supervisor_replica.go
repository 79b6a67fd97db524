package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/osctl/osctl/pkg/proc"
)

// replicaListenFD is the file descriptor of a replica's inherited listening socket.
const replicaListenFD = 3

// replicaProc is one started replica process.
type replicaProc struct {
	index int
	url   string
	// lf is the replica's listening socket, kept open so that a replica started again serves on
	// the same port (connections wait in its backlog meanwhile); closed by Stop.
	lf *os.File
	*proc.Group
}

func (r *replicaProc) process() Process {
	return Process{Kind: "replica", Index: r.index, Addr: r.url, Pid: r.Pid()}
}

func (r *replicaProc) alive() bool { return !r.Exited() }

// startReplica opens replica i's listening socket here (so its port is known and never raced
// for) and starts the replica's command on it.
func (s *Supervisor) startReplica(i int) (*replicaProc, error) {
	c := s.cfg
	port := 0
	if c.PortBase != 0 {
		port = c.PortBase + i
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("replica %d: listening on 127.0.0.1:%d: %v", i, port, err)
	}
	lf, err := l.(*net.TCPListener).File()
	l.Close()
	if err != nil {
		return nil, err
	}
	r, err := s.spawnReplica(i, "http://"+l.Addr().String(), lf)
	if err != nil {
		lf.Close()
	}
	return r, err
}

// spawnReplica starts replica i's command on its listening socket lf, in its own process group.
func (s *Supervisor) spawnReplica(i int, url string, lf *os.File) (*replicaProc, error) {
	c := s.cfg
	cmd := s.replicaCommand(ReplicaSpec{Index: i, Replicas: c.Replicas, Dir: c.Dir, Namespace: s.ns, RedisURLs: s.urls, ListenFD: replicaListenFD})
	cmd.ExtraFiles = []*os.File{lf}
	if cmd.Stdout == nil {
		cmd.Stdout = c.Output
	}
	if cmd.Stderr == nil {
		cmd.Stderr = c.Output
	}
	g, err := proc.Start(cmd, syscall.SIGKILL)
	if err != nil {
		return nil, fmt.Errorf("starting replica %d: %v", i, err)
	}
	return &replicaProc{index: i, url: url, lf: lf, Group: g}, nil
}

func (s *Supervisor) replicaCommand(spec ReplicaSpec) *exec.Cmd {
	if s.cfg.Command != nil {
		return s.cfg.Command(spec)
	}
	var args []string
	if s.cfg.Args != nil {
		args = s.cfg.Args(spec)
	}
	cmd := exec.Command(s.cfg.Executable, args...)
	cmd.Env = append(os.Environ(), s.cfg.Env...)
	return cmd
}

// waitReady polls every replica's GET /status until it answers 200 as the sandbox.
func (s *Supervisor) waitReady(ctx context.Context) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(s.cfg.ReadyTimeout)
	for _, r := range s.replicas {
		for {
			select {
			case <-r.Done():
				return &ExitError{Process: r.process(), AtStart: true, Err: r.Err()}
			case <-ctx.Done():
				return ctx.Err()
			default:
			}
			if statusOK(ctx, client, r.url) {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("replica %d at %s did not answer GET /status within %v", r.index, r.url, s.cfg.ReadyTimeout)
			}
			time.Sleep(25 * time.Millisecond)
		}
	}
	return nil
}

func statusOK(ctx context.Context, c *http.Client, base string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/status", nil)
	if err != nil {
		return false
	}
	resp, err := c.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	var st Status
	return resp.StatusCode == http.StatusOK && json.NewDecoder(resp.Body).Decode(&st) == nil && st.Sandbox
}

// stopReplicas sends SIGTERM to every live replica (by pid), waits up to grace, then SIGKILLs
// what is left and waits for it.
func stopReplicas(replicas []*replicaProc, grace time.Duration) {
	for _, r := range replicas {
		if r.alive() {
			_ = r.Cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	expired := false
	for _, r := range replicas {
		if !expired {
			select {
			case <-r.Done():
				continue
			case <-deadline.C:
				expired = true
			}
		}
		if r.alive() {
			_ = r.Cmd.Process.Kill()
		}
		<-r.Done()
	}
}
