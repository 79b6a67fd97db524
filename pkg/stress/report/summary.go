package report

import (
	"fmt"
	"sort"
	"strings"
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
// extractions, worker waits, contention, the workload, each in-cluster load worker and the
// findings by kind.
func (r *Report) Summary() []Row {
	var rows []Row
	row := func(k, format string, a ...any) { rows = append(rows, Row{k, fmt.Sprintf(format, a...)}) }
	c := r.Counts
	engine := ""
	if r.Engine != "" {
		engine = " (" + r.Engine + ")"
	}
	row("requests", "%d sent, concurrency %d, peak in flight %d, %.0f req/s%s", c.Total, r.Concurrency, r.PeakInFlight, r.Throughput, engine)
	row("outcomes", "%d acknowledged (%.1f%%), %d rejected, %d ambiguous", c.Acknowledged, 100*r.AckFraction, c.Rejected, c.Ambiguous)
	row("status", "2xx %d, 4xx %d, 503 %d, other 5xx %d, timeouts %d, transport errors %d", c.Status2xx, c.Status4xx, c.Status503, c.Status5xx, c.Timeouts, c.Errors)
	row("latency", "p50 %.1fms p90 %.1fms p99 %.1fms p99.9 %.1fms max %.1fms", r.Latency.P50, r.Latency.P90, r.Latency.P99, r.Latency.P999, r.Latency.Max)
	for _, op := range r.Operations {
		row("  "+op.Op, "%d sent: %d acknowledged, %d rejected, %d ambiguous", op.Sent, op.Acknowledged, op.Rejected, op.Ambiguous)
	}
	if x := r.Extractions; x != nil && (x.Expected > 0 || x.Jobs > 0) {
		row("extractions", "%d judged, %d not judged (every job still queued); jobs %d: %d ran, %d still queued", x.Judged, x.NotJudged, x.Jobs, x.Ran, x.Queued)
	}
	if len(r.WorkerWaits) > 0 {
		var parts []string
		for _, w := range r.WorkerWaits {
			p := fmt.Sprintf("%.1fs", w.WaitedS)
			if !w.Worker {
				p += " (no worker seen)"
			}
			parts = append(parts, p)
		}
		row("worker waits", "the last %d parts of the load waited %s for the target's workers", len(parts), strings.Join(parts, ", "))
	}
	if ct := r.Contention; ct != nil {
		row("contention", "%d of %d analyses saw 2+ overlapping writes; max %d writes, %d requests in flight on one analysis", ct.Contended, ct.Analyses, ct.MaxOverlappingWrites, ct.MaxInFlightOneAnalysis)
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
	kinds := []string{}
	for k, n := range r.FindingCounts {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(kinds)
	if len(kinds) == 0 {
		kinds = []string{"none"}
	}
	row("findings", "%s", strings.Join(kinds, ", "))
	return rows
}

// FindingColumns are the columns of FindingRows.
var FindingColumns = []string{"KIND", "OBJECT", "PATH", "EXPECTED", "GOT", "REQUESTS"}

// FindingRows are the report's first limit findings as table rows (its first path, and how many
// more; the requests it names).
func (r *Report) FindingRows(limit int) [][]string {
	var out [][]string
	for i, f := range r.Findings {
		if i == limit {
			break
		}
		path := ""
		if len(f.Paths) > 0 {
			path = f.Paths[0]
			if len(f.Paths) > 1 {
				path += fmt.Sprintf(" (+%d)", len(f.Paths)-1)
			}
		}
		var reqs []string
		for _, q := range f.Requests {
			reqs = append(reqs, fmt.Sprintf("#%d %s %s", q.Seq, q.Op, q.Outcome))
		}
		out = append(out, []string{f.Kind, f.Object, path, f.Expected, f.Got, strings.Join(reqs, "; ")})
	}
	return out
}
