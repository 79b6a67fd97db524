package cmdutil

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestRenamedFlag: the old name sets the new flag, says so once on stderr (never on stdout), and
// stays out of the help; the new name says nothing.
func TestRenamedFlag(t *testing.T) {
	for _, args := range [][]string{{"--old-name", "a", "--old-name=b"}, {"--new-name", "b"}} {
		var got string
		cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
		cmd.Flags().StringVar(&got, "new-name", "", "the flag")
		RenamedFlag(cmd, "old-name", "new-name")
		var out, errOut bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&errOut)
		cmd.SetArgs(args)
		if err := cmd.Execute(); err != nil || got != "b" {
			t.Fatalf("%v: value %q, err %v", args, got, err)
		}
		notices := strings.Count(errOut.String(), "--old-name is deprecated: use --new-name")
		if want := map[bool]int{true: 1, false: 0}[args[0] == "--old-name"]; notices != want || out.Len() != 0 {
			t.Errorf("%v: %d notices on stderr (want %d), stdout %q", args, notices, want, out.String())
		}
		if strings.Contains(cmd.UsageString(), "old-name") {
			t.Errorf("the help shows the old name:\n%s", cmd.UsageString())
		}
	}
}
