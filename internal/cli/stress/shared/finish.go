// Package shared holds what osctl stress and its subcommands (judge, worker) share: the report
// files and their flags, the printed report, the verdict's exit code, the names of the run's
// settings as flags and the Fleets the in-cluster mode plugs in. The subcommands import it, never
// their parent, as cli/cli's pkg/cmd/pr/shared.
package shared

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/stress/report"
)

// AddReportFlags binds --report, --junit and --html.
func AddReportFlags(cmd *cobra.Command, rep, junit, html *string) {
	cmd.Flags().StringVar(rep, "report", "", "write the JSON report to this file (read by 'osctl rollout --stress-report')")
	cmd.Flags().StringVar(junit, "junit", "", "write a JUnit XML report to this file")
	cmd.Flags().StringVar(html, "html", "", "write a self-contained HTML report (latency histogram, requests in flight, findings) to this file")
}

// Finish writes the report files, prints the report and turns the verdict into the exit code.
func Finish(io_ *cmdutil.IOStreams, format output.Format, rep *report.Report, files cmdutil.Files, reportPath, junitPath, htmlPath string) error {
	rep.NameSettings(Settings.Flag)
	writers := map[string]func(io.Writer, *report.Report) error{reportPath: report.WriteJSON, junitPath: report.WriteJUnit, htmlPath: report.WriteHTML}
	for _, p := range []string{reportPath, junitPath, htmlPath} {
		if fh := files[p]; fh != nil {
			if err := writers[p](fh, rep); err != nil {
				return fmt.Errorf("writing %s: %v", p, err)
			}
		}
	}
	if err := output.Print(io_.Out, format, rep, func(w io.Writer) error { return printReport(w, rep) }); err != nil {
		return err
	}
	switch rep.Verdict {
	case "clean":
		return nil
	case "races":
		return cmdutil.ErrSilentFound
	}
	return fmt.Errorf("inconclusive: %s", strings.Join(rep.Reasons, "; "))
}
