package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// TypeUsageErrors makes every mistake of the command line under root a *UsageError (exit 2):
// a bad flag (the flag error func), a wrong number of arguments (each command's Args), a missing
// required flag or a broken flag group, and a mistyped subcommand, which gets cobra's suggestion
// ("Did you mean this?"). A command that only groups subcommands prints its help when run alone
// (exit 0). Call it once the tree is built.
func TypeUsageErrors(root *cobra.Command) {
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &UsageError{Err: err} })
	walk(root, func(c *cobra.Command) {
		if c.HasSubCommands() && c.Run == nil && c.RunE == nil {
			c.Args = unknownSubcommand
			c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
		}
		args := c.Args
		c.Args = func(c *cobra.Command, a []string) error {
			if args != nil {
				if err := args(c, a); err != nil {
					if c.HasSubCommands() && len(a) > 0 {
						// A command that runs and has subcommands (osctl stress): an argument it
						// does not take is most likely a mistyped subcommand.
						return unknownSubcommand(c, a)
					}
					return asUsage(err)
				}
			}
			// cobra checks these after Args, returning plain errors; checked here first they are
			// usage errors.
			if err := c.ValidateRequiredFlags(); err != nil {
				return asUsage(err)
			}
			if err := c.ValidateFlagGroups(); err != nil {
				return asUsage(err)
			}
			return nil
		}
	})
}

func walk(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, sub := range c.Commands() {
		walk(sub, fn)
	}
}

func asUsage(err error) error {
	var ue *UsageError
	if errors.As(err, &ue) {
		return err
	}
	return &UsageError{Err: err}
}

// unknownSubcommand rejects an argument as an unknown subcommand, with cobra's suggestions.
func unknownSubcommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2
	}
	if s := c.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
	}
	return &UsageError{Err: errors.New(msg)}
}

// RunE is the RunE of every osctl command: prepare (nil: nothing to prepare) turns the
// arguments into opts and validates them, without I/O; then runF runs when a test gave one
// (to check flag parsing alone), else run. A library's *setting.Error in what they return reads
// with the command's flags (RenderSetting).
func RunE[O any](opts *O, prepare func(cmd *cobra.Command, args []string) error, runF, run func(context.Context, *O) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if prepare != nil {
			if err := prepare(cmd, args); err != nil {
				return RenderSetting(cmd, err)
			}
		}
		if runF != nil {
			return RenderSetting(cmd, runF(cmd.Context(), opts))
		}
		return RenderSetting(cmd, run(cmd.Context(), opts))
	}
}
