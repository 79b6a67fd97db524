package cli

import (
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
)

// VersionInfo is what `osctl version` reports.
type VersionInfo struct {
	Version   string `json:"version"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
}

// NewCmdVersion builds `osctl version`.
func NewCmdVersion(f *cmdutil.Factory) *cobra.Command {
	var format output.Format
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the osctl version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := VersionInfo{Version: f.Version, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
			return output.Print(f.IO.Out, format, v, func(w io.Writer) error {
				_, err := fmt.Fprintf(w, "osctl %s (%s, %s)\n", v.Version, v.GoVersion, v.Platform)
				return err
			})
		},
	}
	output.AddFlag(cmd, &format)
	return cmd
}

// NewCmdCompletion builds `osctl completion SHELL`.
func NewCmdCompletion(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:       "completion bash|zsh|fish|powershell",
		Short:     "Print a shell completion script",
		Example:   "  source <(osctl completion bash)\n  osctl completion zsh > \"${fpath[1]}/_osctl\"",
		Args:      cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs),
		ValidArgs: []string{"bash", "zsh", "fish", "powershell"},
		RunE: func(cmd *cobra.Command, args []string) error {
			root := cmd.Root()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(f.IO.Out, true)
			case "zsh":
				return root.GenZshCompletion(f.IO.Out)
			case "fish":
				return root.GenFishCompletion(f.IO.Out, true)
			default:
				return root.GenPowerShellCompletionWithDesc(f.IO.Out)
			}
		},
	}
}
