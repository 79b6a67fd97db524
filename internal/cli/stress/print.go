package stress

import (
	"fmt"
	"io"

	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/stress/report"
)

// findingsShown is how many findings the table shows; -o json and --report have them all.
const findingsShown = 50

func printReport(w io.Writer, r *report.Report) error {
	fmt.Fprintln(w, r.Headline())
	for _, s := range r.Reasons {
		fmt.Fprintf(w, "  %s\n", s)
	}
	t := output.NewTable(w, "MEASURE", "VALUE")
	for _, row := range r.Summary() {
		_ = t.Append(row.Measure, row.Value)
	}
	if err := t.Render(); err != nil || len(r.Findings) == 0 {
		return err
	}
	fmt.Fprintln(w)
	ft := output.NewTable(w, report.FindingColumns...)
	for _, row := range r.FindingRows(findingsShown) {
		cells := make([]any, len(row))
		for i, c := range row {
			cells[i] = c
		}
		_ = ft.Append(cells...)
	}
	if len(r.Findings) > findingsShown {
		fmt.Fprintf(w, "... and %d more findings (-o json or --report has them all)\n", len(r.Findings)-findingsShown)
	}
	return ft.Render()
}
