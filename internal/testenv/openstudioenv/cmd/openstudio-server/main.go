// Command openstudio-server runs the real OpenStudio Server v3.7.0 on this machine, as osctl's
// tests do (internal/testenv/openstudioenv), for a person to point `osctl stress` at. It prints the
// replicas' URLs and the state directory, and stops every process it started (by pid) on Ctrl-C.
//
//	make openstudio-server                         # 3 replicas, upstream's app unpatched
//	make openstudio-server ARGS='--patched'        # with contrib/rails's lock
//	go run ./internal/testenv/openstudioenv/cmd/openstudio-server --help
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

	"github.com/osctl/osctl/internal/testenv/openstudioenv"
)

func main() {
	dir := flag.String("dir", "", "the environment's directory (default: a new one under /var/tmp; kept after it stops)")
	replicas := flag.Int("replicas", 3, "web replicas")
	patched := flag.Bool("patched", false, "apply contrib/rails/openstudio-server-v3.7.0.patch and osctl_lock.rb")
	tmpRoot := flag.String("tmp-root", "/dev/shm", "where each replica's TMPDIR goes: another file system than --dir")
	pool := flag.Int("pool", 2, "Passenger's --max-pool-size per replica (upstream's MAX_POOL is 16 per pod)")
	queue := flag.Int("queue", 50, "Passenger's --max-request-queue-size per replica (upstream's MAX_REQUESTS)")
	flag.Parse()
	if *dir == "" {
		d, err := os.MkdirTemp("/var/tmp", "osctl-openstudio-")
		if err != nil {
			fail(err)
		}
		*dir = d
	} else if err := os.MkdirAll(*dir, 0o755); err != nil {
		fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logf := func(format string, a ...any) { fmt.Fprintf(os.Stderr, format+"\n", a...) }
	logf("starting OpenStudio Server v3.7.0 in %s (about a minute)", *dir)
	s, err := openstudioenv.Start(ctx, openstudioenv.Options{Dir: *dir, Replicas: *replicas, Patched: *patched, TmpRoot: *tmpRoot, PoolSize: *pool, QueueSize: *queue, Logf: logf})
	if err != nil {
		fail(err)
	}
	fmt.Printf("targets:   %s\n", strings.Join(s.Targets, ","))
	fmt.Printf("state dir: %s\n", s.Volume)
	fmt.Printf("redis:     %s\n", s.RedisURL)
	fmt.Printf("logs:      %s/log\n", s.Dir)
	fmt.Printf("\nosctl stress --target %s --allow-start --state-dir %s --resque-redis %s --requests 300 --concurrency 60\n\nCtrl-C stops it.\n",
		strings.Join(s.Targets, ","), s.Volume, s.RedisURL)
	<-ctx.Done()
	logf("stopping (every process by its pid)")
	done := make(chan error, 1)
	go func() { done <- s.Stop() }()
	select {
	case err := <-done:
		if err != nil {
			fail(err)
		}
	case <-time.After(2 * time.Minute):
		fail(fmt.Errorf("stopping took over 2 minutes"))
	}
	logf("stopped; the directory %s stays", *dir)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "openstudio-server:", err)
	os.Exit(2)
}
