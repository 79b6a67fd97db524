package workers

import (
	"fmt"
	"regexp"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
)

// addLoad folds a load request the worker ended (or was lost with in flight, then ambiguous) into
// what the coordinator keeps of its load should it be lost: statistics that do not grow with the
// run, not the records. c.mu is held.
func (c *conn) addLoad(r *history.Record) {
	history.AddLoad(c.replay, r)
}

// lostSnapshot is a lost worker's statistics, rebuilt from the records it sent (with records), or
// from its progress alone: that many requests, their outcomes unknown.
func (c *conn) lostSnapshot(records bool) attack.Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !records {
		n := c.doneN
		return attack.Snapshot{Began: c.lostAt, Ended: c.lostAt, Counts: attack.Counts{Total: n, Ambiguous: n}}
	}
	s, err := c.replay.Stats().Snapshot()
	if err != nil {
		return attack.Snapshot{}
	}
	return s
}

// reportLosses says at once, through the fleet's Log, when a worker is lost during the load (its
// stream ended, its process or pod died), rather than only when the load ends: the others go on,
// and the run may have a long way to go. It stops when done is closed.
func (f *Fleet) reportLosses(done <-chan struct{}) {
	for _, c := range f.conns {
		go func() {
			select {
			case <-c.lost:
				f.o.Log(fmt.Sprintf("%s was lost during the load: %s; the other workers go on", c.name(), c.why()))
			case <-done:
			}
		}()
	}
}

var exit137 = regexp.MustCompile(`exit code 137(\D|$)`)

// noStatusHint says what an exec stream that ended without the worker's exit status, its pod
// still there, most likely means.
const noStatusHint = "; its exec stream ended without the worker's exit status while its pod is still there: the node's container runtime or kubelet, or the connection to them, went away"

// killedHint says what a worker's exit code 137 (SIGKILL) most likely means: on a real node, the
// kernel's OOM killer at its container's memory limit (the exec'd worker is the container's
// largest process, and not its main one, so the pod's status does not say OOMKilled).
func killedHint(msg string) string {
	if !exit137.MatchString(msg) {
		return ""
	}
	return " (SIGKILL: the kernel's OOM killer, if the worker's container reached its memory limit (then give the workers more memory, or fewer connections each), or a kill -9)"
}
