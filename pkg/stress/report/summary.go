package report

import (
	"fmt"
	"strings"

	"github.com/osctl/osctl/pkg/stress/detect"
)

// Row is one line of a report's summary table: what it measures, and its value.
type Row struct{ Measure, Value string }

// Headline is the report's first line: the run, its profile, its targets and its verdict.
func (r *Report) Headline() string {
	verdict := r.Verdict
	if r.Partial {
		verdict += " (partial)"
	}
	return fmt.Sprintf("run %s (%s) against %d target(s): %s", r.Run, r.Profile, len(r.Targets), strings.ToUpper(verdict))
}

// Summary is the report's summary table: requests, outcomes, statuses, latency, each operation,
// extractions, background waits, contention, the workload, each in-cluster load worker and the
// findings by kind.
func (r *Report) Summary() []Row {
	var rows []Row
	row := func(k, format string, a ...any) { rows = append(rows, Row{k, fmt.Sprintf(format, a...)}) }
	c := r.Counts
	engine := ""
	if r.Engine != "" {
		engine = " (" + r.Engine + ")"
	}
	row("requests", "%d sent, concurrency %d%s, peak in flight %d, %.0f req/s%s", c.Total, r.Concurrency, r.concurrencyNote(), r.PeakInFlight, r.Throughput, engine)
	row("outcomes", "%d acknowledged (%s), %d rejected, %d ambiguous", c.Acknowledged, detect.Pct(r.AckFraction), c.Rejected, c.Ambiguous)
	row("status", "2xx %d, 4xx %d, 503 %d, other 5xx %d, timeouts %d, transport errors %d", c.Status2xx, c.Status4xx, c.Status503, c.Status5xx, c.Timeouts, c.Errors)
	if r.Latency.Count == 0 && c.Total > 0 {
		row("latency", "none: no load request was answered (%d timeouts, %d transport errors)", c.Timeouts, c.Errors)
	} else {
		row("latency", "p50 %.1fms p90 %.1fms p99 %.1fms p99.9 %.1fms max %.1fms", r.Latency.P50, r.Latency.P90, r.Latency.P99, r.Latency.P999, r.Latency.Max)
	}
	lat := map[string]Breakdown{}
	for _, b := range r.PerOperation {
		lat[b.Name] = b
	}
	for _, op := range r.Operations {
		l := ""
		if b, ok := lat[op.Op]; ok && b.Sent > 0 {
			l = fmt.Sprintf("; p50 %.1fms p99 %.1fms", b.P50, b.P99)
		}
		row("  "+op.Op, "%d sent: %d acknowledged, %d rejected, %d ambiguous%s", op.Sent, op.Acknowledged, op.Rejected, op.Ambiguous, l)
	}
	if r.SettleStopped != "" {
		row("settle", "waited %.0fs after the load for the jobs and the files; stopped: %s", r.SettleWait, r.SettleStopped)
	}
	if r.Part != nil {
		rows = append(rows, r.Part.Rows(r)...)
	}
	if w := r.Workload; w != nil {
		row("workload", "%s/%s %s, %d replicas", w.Namespace, w.Deployment, w.Image, w.Replicas)
	}
	for _, w := range r.Workers {
		lost := ""
		if w.Lost {
			lost = ", LOST: " + w.Reason
		}
		row(fmt.Sprintf("  worker %d", w.Index), "%s: %d sent, %d acknowledged, %.0f req/s, p99 %.1fms, %d errors%s", w.Pod, w.Sent, w.Acknowledged, w.Throughput, w.P99, w.Errors, lost)
	}
	if c := r.CountsLine(); c != "" {
		row("findings", "%s", c)
	} else {
		row("findings", "none")
	}
	return rows
}

func requestsCell(f detect.Finding) string {
	reqs := make([]string, 0, len(f.Requests))
	for _, q := range f.Requests {
		reqs = append(reqs, fmt.Sprintf("#%d %s %s", q.Seq, q.Op, q.Outcome))
	}
	return strings.Join(reqs, "; ")
}

// concurrencyNote says where the concurrency came from, against the tier's capacity.
func (r *Report) concurrencyNote() string {
	switch {
	case r.ConcurrencySource == "auto":
		return " (auto: the tier's capacity)"
	case r.TierCapacity > 0 && r.Concurrency > r.TierCapacity:
		return fmt.Sprintf(" (beyond the tier's capacity %d)", r.TierCapacity)
	case r.TierCapacity > 0:
		return fmt.Sprintf(" (tier capacity %d)", r.TierCapacity)
	}
	return ""
}
