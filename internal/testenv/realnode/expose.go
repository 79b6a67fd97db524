//go:build linux

package realnode

import (
	"fmt"
	"net"
	"testing"
)

// Expose makes a server on this machine's loopback (hostAddr, e.g. 127.0.0.1:8080) reachable from
// the pods: it relays connections to node-1's address, on a port of its own, inside the nodes'
// network namespace (the pods' gateway), and returns that address. The relay stops when t ends.
func (c *Cluster) Expose(t testing.TB, hostAddr string) string {
	t.Helper()
	f, err := startAPIForward(c.netNS, c.Nodes[0].IP+":0", hostAddr)
	if err != nil {
		t.Fatalf("exposing %s to the pods: %v", hostAddr, err)
	}
	t.Cleanup(f.Close)
	return fmt.Sprintf("%s:%d", c.Nodes[0].IP, f.ln.Addr().(*net.TCPAddr).Port)
}
