package stress

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
)

// RunE is the RunE of a stress command whose options are o: check validates the flags, then
// runF runs the command when a test gave one, else run does. An error that names one of the
// library's {Name} settings reads as the command's own flag.
func RunE[O any](o O, check func(*cobra.Command) error, runF, run func(context.Context, O) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		return cmdutil.RenderSetting(cmd, func() error {
			if err := check(cmd); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return run(cmd.Context(), o)
		}())
	}
}
