package shared

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	pstress "github.com/osctl/osctl/pkg/stress"
)

// Fleets adds the flags of other places to send a run's load from, and starts them for a run (osctl
// stress --workers: internal/cli/stress/worker). Start returns nil without its flags; undone says
// what exiting without stop leaves behind.
type Fleets interface {
	AddFlags(cmd *cobra.Command)
	Validate(c *pstress.Config) error
	Start(ctx context.Context, c pstress.Config, records bool, log io.Writer) (fleet pstress.Fleet, undone func() string, stop func(), err error)
}
