// Package preflight is `osctl preflight`: NFS, Redis and manifest checks for CI and before each
// promotion of the web tier.
package preflight

import (
	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
)

// settings names the flags that set the preflight libraries' settings, for their
// *setting.Error messages.
var settings = cmdutil.Settings{"Workload": "--workload", "ProbePods": "--probe-pods", "Container": "--container", "Path": "--path"}

// NewCmdPreflight builds `osctl preflight` and its subcommands.
func NewCmdPreflight(f *cmdutil.Factory) *cobra.Command {
	common := &Common{}
	all := &AllOptions{IO: f.IO, F: f, Common: common}
	cmd := &cobra.Command{
		Use:   "preflight",
		Short: "Check NFS, Redis and manifests before running more than one web replica",
		Long: `Run every check there is input for: manifests (-f/--values), NFS (--mountinfo, a local NFS
mount at --path, or the web pods when a kubeconfig is given), and Redis (--redis or
--redis-service). It says which checks it skipped and why.

Output: a table, -o json (each result with id, status pass/info/unknown/warn/fail, subject,
message, fix), and --junit FILE. Exit 0 when nothing failed (warnings and unknowns allowed),
1 on any FAIL, 2 when a check could not run. Ignore a rule per object with the annotation
osctl.io/ignore: "rule-id[,rule-id]", or everywhere with --config FILE (ignore: [rule-id, ...]).`,
		Example: `  osctl preflight -f rendered.yaml --values values.yaml
  osctl preflight -f rendered.yaml --redis redis://queue:6379 --junit preflight.xml
  osctl preflight -n openstudio --redis-service queue`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := common.loadConfig(); err != nil {
				return err
			}
			all.KubeConfigured = f.KubeConfigured() || f.KubeFlags.Namespace != ""
			return allRun(cmd.Context(), all)
		},
	}
	cmdutil.NameSettings(cmd, settings)
	pf := cmd.PersistentFlags()
	pf.VarP(&common.Format, "output", "o", "output format: table|json|yaml")
	pf.StringVar(&common.JUnit, "junit", "", "also write the results as JUnit XML to FILE")
	pf.StringVar(&common.ConfigPath, "config", "", "preflight config file (YAML): ignore: [rule-id | {id, subject, reason}], passengerMaxRatio")
	addAllFlags(cmd, all)
	cmd.AddCommand(
		NewCmdNFS(f, common, nil),
		NewCmdRedis(f, common, nil),
		NewCmdManifests(f, common, nil),
	)
	return cmd
}

// prepare checks a subcommand's flags with validate (no I/O), then loads --config.
func (c *Common) prepare(validate func() error) func(*cobra.Command, []string) error {
	return func(*cobra.Command, []string) error {
		if err := validate(); err != nil {
			return err
		}
		return c.loadConfig()
	}
}
