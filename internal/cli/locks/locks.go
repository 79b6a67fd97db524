// Package locks holds `osctl locks`: inspect and safely break Redis locks, and find stale lock
// files on the shared volume.
package locks

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/lock/ops"
	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/redisconn"
)

// NewCmdLocks builds `osctl locks` and its subcommands.
func NewCmdLocks(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "locks",
		Short: "See who holds which Redis lock on every master, break stale ones safely, find stale lock files",
		Long: `Redis locks of OpenStudio Server (redlock:<analysis_id>:<step>, analysis:<id>:init_lock) may be
written by redlock-rb (a UUID value), redsync (base64 of 16 bytes), osctl's pkg/lock
(osctl:v1:<host>:<pid>:<random>[:<namespace>]) or a plain SET NX PX. 'inspect' shows them on every master with a
verdict; 'break' removes stale ones with a server-side compare-and-delete that re-checks the stale
condition, and records every break in the stream osctl:audit; 'files' finds lock files on the
shared volume whose work never finished; 'serve-metrics' exports the same view to Prometheus.`,
	}
	cmd.AddCommand(
		NewCmdInspect(f, nil),
		NewCmdBreak(f, nil),
		NewCmdFiles(f, nil),
		NewCmdServeMetrics(f, nil),
	)
	return cmd
}

// mastersFunc connects to the Redis masters of the global flags (the Factory's RedisMasters).
type mastersFunc func(ctx context.Context) ([]redisconn.Master, func(), error)

// explain turns a master's error into the one-line explanation of pkg/redisconn, its settings
// named as the flags.
func explain(m redisconn.Master, err error) string {
	return cmdutil.RedisSettings.Text(redisconn.Explain(m, err).Error())
}

// podsFunc returns the holder-pod checker when a cluster was given, with a warning otherwise
// explaining why pods are not checked (empty when no cluster was asked for).
func factoryPods(f *cmdutil.Factory) func() (ops.PodChecker, string) {
	return func() (ops.PodChecker, string) {
		if !f.KubeConfigured() {
			return nil, ""
		}
		kc, err := f.Kube()
		if err != nil {
			return nil, "cannot check holder pods: " + err.Error()
		}
		return ops.KubePods{Client: kc.Clientset, Namespace: kc.Namespace}, ""
	}
}

// who is the OS user and host recorded in the audit stream.
func who() string {
	name := "unknown"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	} else if s := os.Getenv("USER"); s != "" {
		name = s
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown"
	}
	return name + "@" + host
}

// escape prints s as is when it is plain printable text without spaces, else quoted Go-style
// (strconv.Quote), so that odd bytes in keys and values never corrupt a table.
func escape(s string) string {
	if s == "" {
		return `""`
	}
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	for _, r := range s {
		if r <= ' ' || r == '"' || r == '\\' || r == 0x7f || !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// Env is what every locks command uses besides its clients: the streams, the secrets to scrub
// from what it prints, and the clock.
type Env struct {
	IO      *cmdutil.IOStreams
	Secrets *redact.Secrets
	Now     func() time.Time
}

func envOf(f *cmdutil.Factory) Env { return Env{IO: f.IO, Secrets: f.Secrets, Now: f.Now} }

// ScanFlags choose what an inspection scans (inspect, serve-metrics).
type ScanFlags struct {
	Patterns    []string
	RetryWindow time.Duration
}

func addScanFlags(cmd *cobra.Command, s *ScanFlags) {
	cmd.Flags().StringArrayVar(&s.Patterns, "pattern", nil, "key glob to scan, as SCAN MATCH understands it (repeatable; default redlock:* and analysis:*:init_lock)")
	cmd.Flags().DurationVar(&s.RetryWindow, "retry-window", ops.DefaultRetryWindow, "wait before re-reading a key held on fewer masters than a quorum (an acquisition in progress is not debris)")
}

// validate checks the scan flags; it does no I/O.
func (s ScanFlags) validate() error {
	if s.RetryWindow <= 0 {
		return cmdutil.Usage("--retry-window must be positive")
	}
	for _, p := range s.Patterns {
		if p == "" {
			return cmdutil.Usage("--pattern must not be empty")
		}
	}
	return nil
}

// Redis is how inspect, break and serve-metrics reach the locks: the masters of the global flags
// and, when a cluster was given, the holder-pod checker.
type Redis struct {
	Masters mastersFunc
	Pods    func() (ops.PodChecker, string)
}

func redisOf(f *cmdutil.Factory) Redis { return Redis{Masters: f.RedisMasters, Pods: factoryPods(f)} }

// open connects to the masters and returns the inspection options of s: the explanation of
// master errors, the clock, and the holder-pod checker when a cluster was given (else the warning
// why not is printed). The caller defers closer, which is never nil.
func (r Redis) open(ctx context.Context, f Env, s ScanFlags) (masters []redisconn.Master, o ops.Options, closer func(), err error) {
	masters, closer, err = r.Masters(ctx)
	if err != nil {
		return nil, o, closer, err
	}
	o = ops.Options{Patterns: s.Patterns, RetryWindow: s.RetryWindow, Explain: explain, Now: f.Now}
	if r.Pods != nil {
		checker, w := r.Pods()
		if w != "" {
			warn(f, "%s", w)
		}
		o.Pods = checker
	}
	return masters, o, closer, nil
}

// hasNodes reports whether a master of the inspection is a cluster or Sentinel-managed: its
// keys are read on nodes worth naming.
func hasNodes(sum ops.Summary) bool {
	for _, m := range sum.Masters {
		if m.Kind == redisconn.Cluster || m.Kind == redisconn.Sentinel {
			return true
		}
	}
	return false
}

// noteTopology says on stderr which servers a cluster's or Sentinel's master was read on: the
// primary shards, or the master the sentinels named (host:port), which changes at failover.
func noteTopology(f Env, sum ops.Summary) {
	for _, m := range sum.Masters {
		if m.Error != "" || len(m.Nodes) == 0 {
			continue
		}
		addrs := make([]string, len(m.Nodes))
		for i, n := range m.Nodes {
			addrs[i] = n.Addr
		}
		switch m.Kind {
		case redisconn.Cluster:
			fmt.Fprintf(f.IO.ErrOut, "%s: Redis Cluster, read on its %d primary shard(s) %s\n", f.Secrets.String(m.Name), len(addrs), strings.Join(addrs, ", "))
		case redisconn.Sentinel:
			fmt.Fprintf(f.IO.ErrOut, "%s: read on master %s, the one the sentinels name now\n", f.Secrets.String(m.Name), addrs[0])
		}
	}
}

// warnDown warns about each master an inspection could not read, and each shard of a cluster
// that did not answer, saying what the command does instead.
func warnDown(f Env, sum ops.Summary, instead string) {
	for _, m := range sum.Masters {
		if m.Error != "" {
			warn(f, "%s (%s)", m.Error, instead)
			continue
		}
		for _, n := range m.Nodes {
			if n.Error != "" {
				warn(f, "%s (its keys are not shown; %s)", n.Error, instead)
			}
		}
	}
}

// warn prints one warning line to stderr, scrubbed of secrets.
func warn(f Env, format string, a ...any) {
	fmt.Fprintln(f.IO.ErrOut, "warning: "+f.Secrets.String(fmt.Sprintf(format, a...)))
}
