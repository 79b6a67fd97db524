package shared

import (
	"fmt"
	"io"

	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/stress/report"
)

// findingsShown is how many findings the table shows, shared among the kinds; --html, -o json and
// --report have them all.
const findingsShown = 10

// printReport prints the verdict and its reasons, the summary, the findings grouped by kind and
// one line saying what to do next, within a terminal's width (whole in a pipe).
func printReport(w io.Writer, r *report.Report) error {
	fmt.Fprintln(w, output.Cut(r.Headline(), output.Width(w)))
	for _, s := range r.Reasons {
		output.Fprintw(w, s, "  ", "    ")
	}
	t := output.NewTable(w, "MEASURE", "VALUE")
	for _, row := range r.Summary() {
		_ = t.Append(row.Measure, row.Value)
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, l := range r.PodLines() {
		output.Fprintw(w, l, "", "  ")
	}
	for _, l := range r.FaultLines() {
		output.Fprintw(w, l, "", "  ")
	}
	if len(r.Findings) > 0 {
		what := "findings"
		if len(r.Findings) == 1 {
			what = "finding"
		}
		output.Fprintw(w, fmt.Sprintf("%d %s: %s", len(r.Findings), what, r.CountsLine()), "\n", "  ")
		ft := output.NewTable(w, report.FindingColumns...)
		for _, row := range r.FindingRows(findingsShown) {
			_ = ft.Append(row)
		}
		if err := ft.Render(); err != nil {
			return err
		}
		if n := len(r.Findings) - findingsShown; n > 0 {
			fmt.Fprintf(w, "and %d more (see --html or -o json)\n", n)
		}
	}
	output.Fprintw(w, r.Next(), "\n", "  ")
	return nil
}
