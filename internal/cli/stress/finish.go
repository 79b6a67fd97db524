package stress

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/report"
)

// finish prints the report, writes the report files, and turns the verdict into the exit code.
func finish(o *Options, rep *report.Report, files map[string]*os.File) error {
	if err := writeFiles(rep, files, o.Report, o.JUnit, o.HTML); err != nil {
		return err
	}
	if err := output.Print(o.IO.Out, o.Format, rep, func(w io.Writer) error { return printTable(w, rep) }); err != nil {
		return err
	}
	return verdictError(rep)
}

func writeFiles(rep *report.Report, files map[string]*os.File, reportPath, junitPath, htmlPath string) error {
	if fh := files[reportPath]; fh != nil {
		enc := json.NewEncoder(fh)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fmt.Errorf("writing %s: %v", reportPath, err)
		}
	}
	if fh := files[junitPath]; fh != nil {
		if err := report.WriteJUnit(fh, rep); err != nil {
			return fmt.Errorf("writing %s: %v", junitPath, err)
		}
	}
	if fh := files[htmlPath]; fh != nil {
		if err := report.WriteHTML(fh, rep); err != nil {
			return fmt.Errorf("writing %s: %v", htmlPath, err)
		}
	}
	return nil
}

func verdictError(rep *report.Report) error {
	switch rep.Verdict {
	case detect.Clean:
		return nil
	case detect.Races:
		return cmdutil.ErrSilentFound
	default:
		return fmt.Errorf("inconclusive: %s", strings.Join(rep.Reasons, "; "))
	}
}

func printTable(w io.Writer, r *report.Report) error {
	verdict := r.Verdict
	if r.Partial {
		verdict += " (partial)"
	}
	fmt.Fprintf(w, "run %s (%s) against %d target(s): %s\n", r.Run, r.Profile, len(r.Targets), strings.ToUpper(verdict))
	for _, s := range r.Reasons {
		fmt.Fprintf(w, "  %s\n", s)
	}
	t := output.NewTable(w, "MEASURE", "VALUE")
	c := r.Counts
	sent := fmt.Sprintf("%d sent, concurrency %d, peak in flight %d, %.0f req/s", c.Total, r.Concurrency, r.PeakInFlight, r.Throughput)
	if r.Engine != "" {
		sent += " (" + r.Engine + ")"
	}
	_ = t.Append("requests", sent)
	_ = t.Append("outcomes", fmt.Sprintf("%d acknowledged (%.1f%%), %d rejected, %d ambiguous", c.Acknowledged, 100*r.AckFraction, c.Rejected, c.Ambiguous))
	_ = t.Append("status", fmt.Sprintf("2xx %d, 4xx %d, 503 %d, other 5xx %d, timeouts %d, transport errors %d", c.Status2xx, c.Status4xx, c.Status503, c.Status5xx, c.Timeouts, c.Errors))
	_ = t.Append("latency", fmt.Sprintf("p50 %.1fms p90 %.1fms p99 %.1fms p99.9 %.1fms max %.1fms", r.Latency.P50, r.Latency.P90, r.Latency.P99, r.Latency.P999, r.Latency.Max))
	for _, op := range r.Operations {
		_ = t.Append("  "+op.Op, fmt.Sprintf("%d sent: %d acknowledged, %d rejected, %d ambiguous", op.Sent, op.Acknowledged, op.Rejected, op.Ambiguous))
	}
	if x := r.Extractions; x != nil && (x.Expected > 0 || x.Jobs > 0) {
		_ = t.Append("extractions", fmt.Sprintf("%d judged, %d not judged (every job still queued); jobs %d: %d ran, %d still queued", x.Judged, x.NotJudged, x.Jobs, x.Ran, x.Queued))
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
		_ = t.Append("worker waits", fmt.Sprintf("the last %d parts of the load waited %s for the target's workers", len(parts), strings.Join(parts, ", ")))
	}
	if ct := r.Contention; ct != nil {
		_ = t.Append("contention", fmt.Sprintf("%d of %d analyses saw 2+ overlapping writes; max %d writes, %d requests in flight on one analysis", ct.Contended, ct.Analyses, ct.MaxOverlappingWrites, ct.MaxInFlightOneAnalysis))
	}
	if r.Workload != nil {
		_ = t.Append("workload", fmt.Sprintf("%s/%s %s, %d replicas", r.Workload.Namespace, r.Workload.Deployment, r.Workload.Image, r.Workload.Replicas))
	}
	kinds := make([]string, 0, len(r.FindingCounts))
	for k, n := range r.FindingCounts {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(kinds)
	if len(kinds) == 0 {
		kinds = []string{"none"}
	}
	_ = t.Append("findings", strings.Join(kinds, ", "))
	if err := t.Render(); err != nil {
		return err
	}
	if len(r.Findings) > 0 {
		fmt.Fprintln(w)
		ft := output.NewTable(w, "KIND", "OBJECT", "PATH", "EXPECTED", "GOT", "REQUESTS")
		for i, f := range r.Findings {
			if i == 50 {
				fmt.Fprintf(w, "... and %d more findings (-o json or --report has them all)\n", len(r.Findings)-50)
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
			_ = ft.Append(f.Kind, f.Object, path, f.Expected, f.Got, strings.Join(reqs, "; "))
		}
		if len(r.Findings) <= 50 {
			return ft.Render()
		}
		return ft.Render()
	}
	return nil
}

// workload reads the Deployment under test: its first container's image and ready replicas.
func workload(ctx context.Context, f *cmdutil.Factory, name string) (*report.Workload, error) {
	kc, err := f.Kube()
	if err != nil {
		return nil, err
	}
	d, err := kc.Clientset.AppsV1().Deployments(kc.Namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	w := &report.Workload{Namespace: kc.Namespace, Deployment: name, Replicas: d.Status.ReadyReplicas}
	if cs := d.Spec.Template.Spec.Containers; len(cs) > 0 {
		w.Image = cs[0].Image
	}
	return w, nil
}
