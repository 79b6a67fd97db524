// Package cli is osctl's command tree. Main is the one place that decides the exit code.
package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/redis/go-redis/v9/logging"
	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	lockscmd "github.com/osctl/osctl/internal/cli/locks"
	preflightcmd "github.com/osctl/osctl/internal/cli/preflight"
	rolloutcmd "github.com/osctl/osctl/internal/cli/rollout"
	sandboxcmd "github.com/osctl/osctl/internal/cli/sandbox"
	stresscmd "github.com/osctl/osctl/internal/cli/stress"
	stresscleanupcmd "github.com/osctl/osctl/internal/cli/stress/cleanup"
	stressjudgecmd "github.com/osctl/osctl/internal/cli/stress/judge"
	stressworkercmd "github.com/osctl/osctl/internal/cli/stress/worker"
)

// Main runs osctl with the process's arguments and returns its exit code.
func Main() int {
	// go-redis logs dial failures to stderr on its own; osctl reports every error itself, once.
	logging.Disable()
	return Run(context.Background(), cmdutil.New(BuildVersion()), os.Args[1:])
}

// Run executes the command tree with args on f's streams and returns the exit code. The first
// Ctrl-C (or SIGTERM) cancels the command's context; commands that must finish work (a rollback,
// a partial report) continue on a context of their own. A second one returns ExitInterrupted at
// once, saying what the command registered as left undone (f.Interrupts), unless the command
// refuses it (a rollback), in which case the refusal is printed and Run keeps waiting.
func Run(ctx context.Context, f *cmdutil.Factory, args []string) int {
	return run(ctx, f, NewCmdRoot(f), args)
}

func run(ctx context.Context, f *cmdutil.Factory, root *cobra.Command, args []string) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan int, 1)
	go func() { done <- execute(ctx, f, root, args) }()
	interrupted := false
	for {
		select {
		case code := <-done:
			return code
		case <-sigs:
			if !interrupted {
				interrupted = true
				cancel()
				continue
			}
			msg, refused := f.Interrupts.Again()
			if refused {
				fmt.Fprintln(f.IO.ErrOut, f.Secrets.String(msg))
				continue
			}
			text := "interrupted again: exiting at once"
			if msg != "" {
				text += "; left undone: " + msg
			}
			fmt.Fprintln(f.IO.ErrOut, f.Secrets.String(text))
			return cmdutil.ExitInterrupted
		}
	}
}

// execute runs the command and turns its error into the exit code: the one place that does.
func execute(ctx context.Context, f *cmdutil.Factory, root *cobra.Command, args []string) int {
	root.SetArgs(args)
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return cmdutil.ExitOK
	}
	err = cmdutil.RenderSetting(cmd, err)
	var fe *cmdutil.FoundError
	if errors.As(err, &fe) && fe.Msg == "" {
		return cmdutil.ExitProblem
	}
	msg := f.Secrets.String(err.Error())
	fmt.Fprintln(f.IO.ErrOut, "Error: "+msg)
	var ue *cmdutil.UsageError
	if errors.As(err, &ue) {
		fmt.Fprintln(f.IO.ErrOut, "Run '"+commandPath(root, args)+" --help' for usage.")
		return cmdutil.ExitError
	}
	return cmdutil.ExitCode(err)
}

// newCmdStress is `osctl stress` with its in-cluster mode (--workers) and its subcommands, each in
// its own package.
func newCmdStress(f *cmdutil.Factory) *cobra.Command {
	cmd := stresscmd.NewCmdStress(f, nil, stressworkercmd.NewFleets(f))
	cmd.AddCommand(stressjudgecmd.NewCmdJudge(f, nil), stresscleanupcmd.NewCmdCleanup(f, nil), stressworkercmd.NewCmdWorker(f, nil))
	return cmd
}

// NewCmdRoot builds the whole command tree.
func NewCmdRoot(f *cmdutil.Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "osctl",
		Short: "Take a stateful web tier from one replica to many without corrupting shared state",
		Long: `osctl makes each step of scaling a stateful web tier checkable and safe: Redis locks you can
inspect and break safely, NFS and Redis preflight checks, a stress run that judges the resulting
file state, a gated 1 -> 2 -> N HPA rollout, and a local sandbox that reproduces the races.

Exit codes: 0 did its job and found nothing wrong; 1 found a problem; 2 could not do its job;
130 a second Ctrl-C ended it at once.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	f.AddGlobalFlags(root)
	root.AddCommand(
		NewCmdVersion(f),
		NewCmdCompletion(f),
		lockscmd.NewCmdLocks(f),
		sandboxcmd.NewCmdSandbox(f),
		rolloutcmd.NewCmdRollout(f),
		preflightcmd.NewCmdPreflight(f),
		newCmdStress(f),
	)
	cmdutil.TypeUsageErrors(root)
	setDisplayName(root, os.Args[0])
	return root
}

func commandPath(root *cobra.Command, args []string) string {
	c, _, err := root.Find(args)
	if err != nil || c == nil {
		return root.CommandPath()
	}
	return c.CommandPath()
}
