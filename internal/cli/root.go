// Package cli is osctl's command tree. Main is the one place that decides the exit code.
package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/redis/go-redis/v9/logging"
	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	lockscmd "github.com/osctl/osctl/internal/cli/locks"
	preflightcmd "github.com/osctl/osctl/internal/cli/preflight"
	rolloutcmd "github.com/osctl/osctl/internal/cli/rollout"
	sandboxcmd "github.com/osctl/osctl/internal/cli/sandbox"
	stresscmd "github.com/osctl/osctl/internal/cli/stress"
)

// Version is set at build time with -ldflags "-X github.com/osctl/osctl/internal/cli.Version=...".
var Version = "dev"

// Main runs osctl with the process's arguments and returns its exit code.
func Main() int {
	// go-redis logs dial failures to stderr on its own; osctl reports every error itself, once.
	logging.Disable()
	return Run(context.Background(), cmdutil.New(Version), os.Args[1:])
}

// Run executes the command tree with args on f's streams and returns the exit code. The first
// Ctrl-C cancels the command's context; commands that must finish work (a rollback, a partial
// report) continue on a context of their own.
func Run(ctx context.Context, f *cmdutil.Factory, args []string) int {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := NewCmdRoot(f)
	root.SetArgs(args)
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return cmdutil.ExitOK
	}
	var fe *cmdutil.FoundError
	if errors.As(err, &fe) && fe.Msg == "" {
		return cmdutil.ExitProblem
	}
	msg := f.Secrets.String(err.Error())
	fmt.Fprintln(f.IO.ErrOut, "Error: "+msg)
	var ue *cmdutil.UsageError
	if errors.As(err, &ue) || isFlagError(err) {
		fmt.Fprintln(f.IO.ErrOut, "Run '"+commandPath(root, args)+" --help' for usage.")
		return cmdutil.ExitError
	}
	return cmdutil.ExitCode(err)
}

// NewCmdRoot builds the whole command tree.
func NewCmdRoot(f *cmdutil.Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "osctl",
		Short: "Take a stateful web tier from one replica to many without corrupting shared state",
		Long: `osctl makes each step of scaling a stateful web tier checkable and safe: Redis locks you can
inspect and break safely, NFS and Redis preflight checks, a stress run that judges the resulting
file state, a gated 1 -> 2 -> N HPA rollout, and a local sandbox that reproduces the races.

Exit codes: 0 did its job and found nothing wrong; 1 found a problem; 2 could not do its job.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &cmdutil.UsageError{Err: err} })
	f.AddGlobalFlags(root)
	root.AddCommand(
		NewCmdVersion(f),
		NewCmdCompletion(f),
		lockscmd.NewCmdLocks(f),
		sandboxcmd.NewCmdSandbox(f),
		rolloutcmd.NewCmdRollout(f),
		preflightcmd.NewCmdPreflight(f),
		stresscmd.NewCmdStress(f, nil),
	)
	return root
}

func isFlagError(err error) bool {
	s := err.Error()
	return strings.HasPrefix(s, "unknown command") || strings.HasPrefix(s, "unknown flag") ||
		strings.HasPrefix(s, "unknown shorthand flag") || strings.Contains(s, "accepts ") ||
		strings.HasPrefix(s, "required flag")
}

func commandPath(root *cobra.Command, args []string) string {
	c, _, err := root.Find(args)
	if err != nil || c == nil {
		return root.CommandPath()
	}
	return c.CommandPath()
}
