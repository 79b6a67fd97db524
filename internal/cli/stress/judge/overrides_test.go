package judge

import (
	"bytes"
	"context"
	"testing"

	"github.com/osctl/osctl/internal/cli/cmdutil"
)

// TestJudgeOverridesChecked: a threshold flag of judge is checked by the thresholds' one Check
// (pkg/stress/verdict) before the history is read: one line naming the flag, exit 2.
func TestJudgeOverridesChecked(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--min-acknowledged", "2"}, "--min-acknowledged 2: use a fraction between 0 and 1"},
		{[]string{"--min-contended", "-0.5"}, "--min-contended -0.5: use a fraction between 0 and 1"},
		{[]string{"--grace", "-1s"}, "--grace -1s: must be 0 or more"},
		{[]string{"--max-active", "-2"}, "--max-active -2: must be 0 (the sandbox's) or more"},
	} {
		f := cmdutil.TestFactory()
		ran := false
		cmd := NewCmdJudge(f, func(_ context.Context, _ *JudgeOptions) error { ran = true; return nil })
		cmd.SetArgs(append([]string{"--history", "never-read.jsonl"}, c.args...))
		cmd.SetOut(f.IO.Out)
		cmd.SetErr(f.IO.ErrOut)
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		err := cmd.Execute()
		if err == nil || err.Error() != c.want || cmdutil.ExitCode(err) != 2 || ran {
			t.Errorf("%v: %v (exit %d, ran %v), want %q, exit 2", c.args, err, cmdutil.ExitCode(err), ran, c.want)
		}
	}
	// A good override is taken.
	f := cmdutil.TestFactory()
	var got *JudgeOptions
	cmd := NewCmdJudge(f, func(_ context.Context, o *JudgeOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--history", "h.jsonl", "--min-acknowledged", "0.9", "--grace", "3s"})
	cmd.SetOut(new(bytes.Buffer))
	if err := cmd.Execute(); err != nil || got == nil || *got.Override.MinAcknowledged != 0.9 || got.Override.Grace.String() != "3s" || got.Override.MinContended != nil {
		t.Fatalf("a good override: %v, %+v", err, got)
	}
}
