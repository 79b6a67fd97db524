package locks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/lock/ops"
)

// ServeMetricsOptions are the inputs of `osctl locks serve-metrics`.
type ServeMetricsOptions struct {
	Env
	ScanFlags
	Redis
	Listen      string
	MinInterval time.Duration
	Top         int
	// Listening is called with the address the endpoint listens on (a seam for tests).
	Listening func(addr string)
}

// NewCmdServeMetrics builds `osctl locks serve-metrics`.
func NewCmdServeMetrics(f *cmdutil.Factory, runF func(context.Context, *ServeMetricsOptions) error) *cobra.Command {
	opts := &ServeMetricsOptions{Env: envOf(f), Redis: redisOf(f)}
	cmd := &cobra.Command{
		Use:   "serve-metrics [--listen ADDR]",
		Short: "Serve lock health as Prometheus metrics: locks by verdict, stale ages, debris, masters up",
		Long: `Serve /metrics (Prometheus text or OpenMetrics) for Prometheus to scrape. Each scrape runs the
pipeline of 'osctl locks inspect' (at most one scan at a time: a scrape during a scan gets that
scan's result, and one within --min-interval of the last scan gets its result), and exports:

  osctl_locks{verdict,flavour}           lock keys by the verdict and flavour inspect reports
  osctl_lock_minority_debris             stale keys on fewer masters than a quorum, read twice
  osctl_lock_oldest_age_seconds          how long the oldest lock has held its value
  osctl_lock_stale_age_seconds{pattern}  the same for the oldest stale lock of each key pattern
                                         (redlock:*:analysis_zip: no label per key)
  osctl_lock_top_age_seconds{rank,key,...}  the --top N oldest locks by key (off by default)
  osctl_redis_up{master,node}            1 when the server answered, else 0: master is host:port (a
                                         cluster's first seed, Sentinel's master name), node each
                                         primary shard of a cluster, or the master the sentinels
                                         name now (it follows a failover without a restart)
  osctl_redis_rtt_seconds{master,node}   the round trip of a PING
  osctl_audit_stream_length{master}      entries in the audit stream osctl:audit
  osctl_lock_scan_duration_seconds, osctl_lock_scan_success, osctl_lock_scans_total, ...

Ages count from when this process first saw a key hold its value. A master that does not
answer, at start or later, is osctl_redis_up 0: the endpoint keeps answering. It runs until
Ctrl-C; it exits 2 only for bad flags or an address it cannot listen on.`,
		Example: `  osctl locks serve-metrics --listen :9464 --redis redis://:PASS@10.0.0.5:6379
  osctl locks serve-metrics --redis-sentinel 'redis://:PASS@sentinel-0:26379?addr=sentinel-1:26379' --redis-sentinel-master mymaster
  OSCTL_REDIS=redis://r1:6379,redis://r2:6379,redis://r3:6379 osctl locks serve-metrics --top 5`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(opts, func(*cobra.Command, []string) error { return opts.validate() }, runF, serveMetricsRun),
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Listen, "listen", ":9464", "address to serve /metrics on (host:port; :9464 is every interface)")
	fl.DurationVar(&opts.MinInterval, "min-interval", ops.DefaultMinInterval, "a scrape within this time of the last scan gets that scan's result (0: only scrapes during a scan share it)")
	fl.IntVar(&opts.Top, "top", 0, fmt.Sprintf("export the N oldest locks by key as osctl_lock_top_age_seconds (at most %d; 0: none)", ops.MaxTop))
	addScanFlags(cmd, &opts.ScanFlags)
	return cmd
}

// validate checks the flags; it does no I/O.
func (o *ServeMetricsOptions) validate() error {
	if o.Listen == "" {
		return cmdutil.Usage("--listen is empty: give host:port, for example --listen :9464")
	}
	if _, _, err := net.SplitHostPort(o.Listen); err != nil {
		return cmdutil.Usage("--listen %q: give host:port, for example --listen :9464 or --listen 127.0.0.1:9464", o.Listen)
	}
	if o.MinInterval < 0 {
		return cmdutil.Usage("--min-interval must not be negative")
	}
	if o.Top < 0 || o.Top > ops.MaxTop {
		return cmdutil.Usage("--top %d: give 0 to %d (one series per key is kept for the oldest few only)", o.Top, ops.MaxTop)
	}
	return o.ScanFlags.validate()
}

func serveMetricsRun(ctx context.Context, o *ServeMetricsOptions) error {
	f := o.Env
	masters, lo, closer, err := o.open(ctx, f, o.ScanFlags)
	defer closer()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.Listen)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %v: choose another --listen", o.Listen, err)
	}
	mon := ops.NewMonitor(ctx, masters, ops.HealthOptions{Inspect: lo, MinInterval: o.MinInterval, Top: o.Top})
	coll := ops.NewCollector(mon)
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		// Answer within the scrape timeout Prometheus sends, so that a slow scan is a scan that did
		// not finish (osctl_lock_scan_success 0), not a failed scrape.
		sctx, cancel := context.WithTimeout(r.Context(), scrapeBudget(r.Header.Get("X-Prometheus-Scrape-Timeout-Seconds")))
		defer cancel()
		reg := prometheus.NewRegistry()
		reg.MustRegister(coll.Within(sctx))
		promhttp.HandlerFor(reg, promhttp.HandlerOpts{EnableOpenMetrics: true}).ServeHTTP(w, r)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, "osctl lock metrics: /metrics")
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	addr := ln.Addr().String()
	pace := "scrapes during a scan share it"
	if o.MinInterval > 0 {
		pace = "a scan at most every " + o.MinInterval.String()
	}
	fmt.Fprintf(f.IO.ErrOut, "serving lock metrics of %d Redis master(s) on http://%s/metrics (%s); Ctrl-C to stop\n", len(masters), addr, pace)
	if o.Listening != nil {
		o.Listening(addr)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serving %s: %v", addr, err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("stopping the metrics server: %v", err)
	}
	fmt.Fprintln(f.IO.ErrOut, "stopped serving lock metrics")
	return nil
}

// scrapeBudget is how long a scrape may wait for the scan: most of the timeout Prometheus sends
// (X-Prometheus-Scrape-Timeout-Seconds), leaving room to write the answer; without the header,
// the scan's own timeout.
func scrapeBudget(header string) time.Duration {
	secs, err := strconv.ParseFloat(strings.TrimSpace(header), 64)
	if err != nil || !(secs > 0) {
		return ops.DefaultScanTimeout
	}
	d := time.Duration(secs * float64(time.Second))
	return min(max(d*9/10, d-250*time.Millisecond, 10*time.Millisecond), ops.DefaultScanTimeout)
}
