package ops

import (
	"context"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
)

// The verdicts and flavours osctl_locks always has a series for, so that a count that drops to
// zero shows as 0 rather than as a gap.
var (
	metricVerdicts = []Status{StatusLive, StatusStale, StatusLongTTL, StatusNotALock}
	metricFlavours = []string{string(FlavourRedlockRb), string(FlavourRedsync), string(FlavourOsctl), string(FlavourUnknown), "none"}
)

// The metrics of `osctl locks serve-metrics`. osctl_locks and osctl_redis_up are fixed: alert
// rules and dashboards name them.
var (
	descLocks      = prometheus.NewDesc("osctl_locks", "Lock keys seen by the last scan, by the verdict and flavour `osctl locks inspect` reports.", []string{"verdict", "flavour"}, nil)
	descDebris     = prometheus.NewDesc("osctl_lock_minority_debris", "Stale locks held on fewer masters than a quorum on two reads a retry window apart (debris of a failed acquisition or release).", nil, nil)
	descOldest     = prometheus.NewDesc("osctl_lock_oldest_age_seconds", "How long the oldest lock has held its value, as far as this exporter has seen it (0 without locks).", nil, nil)
	descStaleAge   = prometheus.NewDesc("osctl_lock_stale_age_seconds", "How long the oldest stale lock of each key pattern has held its value, as far as this exporter has seen it.", []string{"pattern"}, nil)
	descTop        = prometheus.NewDesc("osctl_lock_top_age_seconds", "The oldest locks by key (as many as the exporter was asked for), with their age.", []string{"rank", "key", "verdict", "flavour"}, nil)
	descUp         = prometheus.NewDesc("osctl_redis_up", "Whether the Redis server answered the last scan (1) or not (0): per master, and per node (a cluster's primary shard, the master Sentinel named; the master itself for a standalone one).", []string{"master", "node"}, nil)
	descRTT        = prometheus.NewDesc("osctl_redis_rtt_seconds", "Round trip of a PING to the server at the start of the last scan.", []string{"master", "node"}, nil)
	descAudit      = prometheus.NewDesc("osctl_audit_stream_length", "Entries in the audit stream osctl:audit on the master (XLEN).", []string{"master"}, nil)
	descScanTook   = prometheus.NewDesc("osctl_lock_scan_duration_seconds", "How long the last scan of the masters took.", nil, nil)
	descScanOK     = prometheus.NewDesc("osctl_lock_scan_success", "Whether the last scan ran to its end on at least one master (1) or not (0: the lock metrics are left out).", nil, nil)
	descScanAt     = prometheus.NewDesc("osctl_lock_scan_timestamp_seconds", "When the last scan started, in seconds since the epoch.", nil, nil)
	descScansTotal = prometheus.NewDesc("osctl_lock_scans_total", "Scans run since the exporter started (scrapes within its minimum interval share one scan).", nil, nil)
)

// Collector exports a Monitor's lock health as Prometheus metrics: each collection is one call
// of Monitor.Health, so scrapes are coalesced as the Monitor coalesces its callers.
type Collector struct {
	m   *Monitor
	ctx context.Context // nil: wait for the scan
}

// NewCollector returns the collector of m's lock health.
func NewCollector(m *Monitor) *Collector { return &Collector{m: m} }

// Within returns the collector for one scrape that must be answered by the time ctx ends
// (Prometheus sends its scrape timeout): a scan still running then is reported as
// osctl_lock_scan_success 0, without lock counts, and goes on for the next scrape.
func (c *Collector) Within(ctx context.Context) *Collector { return &Collector{m: c.m, ctx: ctx} }

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descLocks, descDebris, descOldest, descStaleAge, descTop, descUp, descRTT, descAudit, descScanTook, descScanOK, descScanAt, descScansTotal} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	var h LockHealth
	if c.ctx != nil {
		h = c.m.HealthWithin(c.ctx)
	} else {
		h = c.m.Health()
	}
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	for _, m := range h.Masters {
		if len(m.Nodes) == 0 {
			gauge(descUp, b2f(m.Up), m.Addr, "")
		}
		for _, n := range m.Nodes {
			gauge(descUp, b2f(n.Up), m.Addr, n.Addr)
			if n.Up {
				gauge(descRTT, n.RTT.Seconds(), m.Addr, n.Addr)
			}
		}
		if m.AuditLen >= 0 {
			gauge(descAudit, float64(m.AuditLen), m.Addr)
		}
	}
	gauge(descScanTook, h.Took.Seconds())
	gauge(descScanOK, b2f(h.Complete))
	gauge(descScanAt, float64(h.Start.UnixMilli())/1000)
	ch <- prometheus.MustNewConstMetric(descScansTotal, prometheus.CounterValue, float64(h.Scans))
	if !h.Complete {
		return // unknown, not zero
	}
	for _, v := range metricVerdicts {
		for _, f := range metricFlavours {
			gauge(descLocks, float64(h.Locks[LockClass{Verdict: v, Flavour: f}]), string(v), f)
		}
	}
	for cl, n := range h.Locks { // a verdict or flavour osctl learned after this list
		if !known(cl) {
			gauge(descLocks, float64(n), string(cl.Verdict), cl.Flavour)
		}
	}
	gauge(descDebris, float64(h.Debris))
	gauge(descOldest, h.Oldest.Seconds())
	for p, age := range h.StaleAge {
		gauge(descStaleAge, age.Seconds(), p)
	}
	for i, l := range h.Top {
		gauge(descTop, l.Age.Seconds(), strconv.Itoa(i+1), l.Key, string(l.Verdict), l.Flavour)
	}
}

func known(cl LockClass) bool {
	for _, v := range metricVerdicts {
		for _, f := range metricFlavours {
			if cl == (LockClass{Verdict: v, Flavour: f}) {
				return true
			}
		}
	}
	return false
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
