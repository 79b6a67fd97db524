package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/pkg/setting"
)

// A library's setting error reads with the command's flags (its own names first, then its
// parent's), keeps its kind, and a name no command knows stays the Go name.
func TestRenderSetting(t *testing.T) {
	parent := &cobra.Command{Use: "p"}
	NameSettings(parent, Settings{"Hold": "--hold", "Steps": "--parent-steps"})
	type opts struct{}
	var ret error
	child := &cobra.Command{Use: "c", RunE: RunE(&opts{}, nil, nil, func(context.Context, *opts) error { return ret })}
	NameSettings(child, Settings{"Steps": "--steps"})
	parent.AddCommand(child)

	ret = &UsageError{Err: fmt.Errorf("the plan: %w", setting.Errorf("Steps", `"2,1": must increase; see {Hold} and {Other}`))}
	err := child.RunE(child, nil)
	if got, want := err.Error(), `the plan: --steps "2,1": must increase; see --hold and Other`; got != want {
		t.Fatalf("rendered %q, want %q", got, want)
	}
	var ue *UsageError
	if !errors.As(err, &ue) || ExitCode(err) != ExitError {
		t.Fatalf("the usage error's kind was lost: %T", err)
	}
	ret = errors.New("plain")
	if err := child.RunE(child, nil); err != ret {
		t.Fatalf("an error without a setting changed: %v", err)
	}
	ret = nil
	if err := child.RunE(child, nil); err != nil {
		t.Fatalf("nil became %v", err)
	}
}
