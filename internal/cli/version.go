package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
)

// Version is the release's version, set at build time with
// -ldflags "-X github.com/osctl/osctl/internal/cli.Version=v1.2.3" (make build, make dist). A
// build without it reports the version Go stamped into the binary (BuildVersion).
var Version string

// BuildVersion is this osctl's version: Version when the build set it, else the module version
// Go stamped: v1.2.3 for `go install github.com/osctl/osctl/cmd/osctl@v1.2.3`, and for a `go
// build` in a checkout the commit's pseudo-version, v0.0.0-20261206230000-5ae7ac9abcde, with
// +dirty when the checkout had changes.
func BuildVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(Version, bi)
}

// versionOf is the version of a build with ldflags' Version set (or "") and build info bi (or
// nil). A build Go stamped "(devel)" (-buildvcs=false, or a Go that does not stamp the module
// version) gets the pseudo-version of its vcs.revision and vcs.time; a build with neither is
// "devel".
func versionOf(ldflags string, bi *debug.BuildInfo) string {
	if ldflags != "" {
		return ldflags
	}
	if bi == nil {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, at string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) < 12 || len(at) < len("2006-01-02T15:04:05") {
		return "devel"
	}
	// vcs.time is RFC 3339 in UTC (2026-12-06T23:00:00Z): its digits make YYYYMMDDHHMMSS.
	stamp := strings.NewReplacer("-", "", "T", "", ":", "").Replace(at[:len("2006-01-02T15:04:05")])
	v := "v0.0.0-" + stamp + "-" + rev[:12]
	if dirty {
		v += "+dirty"
	}
	return v
}

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
