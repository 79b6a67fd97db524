package cmdutil

import (
	"fmt"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// RenamedFlag keeps --old working, for a release, as the flag now called --new: the old name is
// read as the new one (it is not in the help), and the first use of it says so on stderr.
// (cobra's own MarkDeprecated notice goes to stdout, where it would mix with -o json.)
func RenamedFlag(cmd *cobra.Command, old, new string) {
	fs := cmd.Flags()
	prev := fs.GetNormalizeFunc()
	var once sync.Once
	fs.SetNormalizeFunc(func(f *pflag.FlagSet, name string) pflag.NormalizedName {
		if name == old {
			once.Do(func() {
				fmt.Fprintf(cmd.ErrOrStderr(), "osctl: --%s is deprecated: use --%s (the same setting)\n", old, new)
			})
			name = new
		}
		return prev(f, name)
	})
}
