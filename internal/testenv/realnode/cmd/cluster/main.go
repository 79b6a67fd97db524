//go:build linux

// Command cluster is `make cluster`: the tests' control plane and real nodes (containerd, runc,
// the CNI bridge, kubelet, kube-proxy) on this machine, for a person. Once every node is Ready it
// prints "kubeconfig: PATH"; kubectl and osctl with that kubeconfig work from this machine's
// shell. It runs until Ctrl-C (SIGINT) or SIGTERM, then stops everything it started and says
// whether anything was left. Needs root and what scripts/test-deps.sh installs.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/osctl/osctl/internal/testenv/realnode"
)

func main() {
	nodes := flag.Int("nodes", 1, "real nodes to start")
	osctl := flag.String("osctl", "", "osctl binary (static) for the image "+realnode.OsctlImage)
	flag.Parse()
	if m := realnode.Missing(); len(m) > 0 {
		fmt.Fprintf(os.Stderr, "cluster: this machine lacks: %s\n", strings.Join(m, "; "))
		os.Exit(2)
	}
	_, err := os.Stat("/usr/bin/redis-server")
	// Ctrl-C while starting ends the start (which stops what it started); once Ready, it stops all.
	sctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	ctx, cancel := context.WithTimeout(sctx, 5*time.Minute)
	t0 := time.Now()
	c, err := realnode.Start(ctx, realnode.Options{Nodes: *nodes, Osctl: *osctl, Redis: err == nil})
	cancel()
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "cluster: %v\n", err)
		os.Exit(2)
	}
	for _, n := range c.Nodes {
		fmt.Printf("node %s Ready: IP %s, pods %s, containerd %s, cgroup /%s\n", n.Name, n.IP, n.CIDR, realnode.ContainerdVersion, n.Cgroup)
	}
	fmt.Printf("images (imagePullPolicy: Never): %s\n", strings.Join(c.ImageNames(), " "))
	fmt.Printf("logs: %s/logs\n", c.Dir)
	fmt.Printf("ready in %.1fs; Ctrl-C stops everything\n", time.Since(t0).Seconds())
	fmt.Printf("kubeconfig: %s\n", c.Kube.Kubeconfig)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	fmt.Println("stopping...")
	if err := c.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "cluster: %v\n", err)
		os.Exit(1)
	}
	fmt.Println("stopped: no process, namespace, mount or cgroup left")
}
