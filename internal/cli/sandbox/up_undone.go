package sandbox

import (
	"fmt"
	"strings"
	"sync"

	"github.com/osctl/osctl/pkg/redisproc"
)

// leftovers tracks the processes up started, so that a second Ctrl-C, which exits at once, can
// name those not yet stopped (see cmdutil.Interrupts). They do not outlive up: each is started
// with Pdeathsig SIGKILL, so the kernel kills them when up exits, without their graceful stop.
type leftovers struct {
	mu       sync.Mutex
	dir      string
	replicas []*replica
	servers  []*redisproc.Server
}

func (l *leftovers) addReplica(r *replica) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.replicas = append(l.replicas, r)
}

func (l *leftovers) addServer(s *redisproc.Server) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.servers = append(l.servers, s)
}

// undone names the replicas and redis-servers not yet stopped, by pid.
func (l *leftovers) undone() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var parts []string
	for _, r := range l.replicas {
		select {
		case <-r.done:
		default:
			parts = append(parts, fmt.Sprintf("replica %d (pid %d)", r.index, r.cmd.Process.Pid))
		}
	}
	for _, s := range l.servers {
		if s.Alive() {
			parts = append(parts, fmt.Sprintf("redis-server %s (pid %d)", s.Addr, s.Pid()))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "the graceful stop of " + strings.Join(parts, ", ") + ": they are killed with osctl, a request in flight may be cut; state kept in " + l.dir
}
