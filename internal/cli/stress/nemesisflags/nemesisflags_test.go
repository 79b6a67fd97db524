package nemesisflags

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
)

// TestEmptySelectorIsAUsageError: a selector that selects every pod (empty, blank) is refused
// with exit 2, as is one that does not parse; the defaults pass.
func TestEmptySelectorIsAUsageError(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"--nemesis-web-selector", ""}, `--nemesis-web-selector "" selects every pod of the namespace`},
		{[]string{"--nemesis-web-selector", " "}, `--nemesis-web-selector " " selects every pod`},
		{[]string{"--nemesis-redis-selector", ""}, `--nemesis-redis-selector "" selects every pod`},
		{[]string{"--nemesis-web-selector", "app in ("}, `--nemesis-web-selector "app in ("`},
		{[]string{"--nemesis-web-selector", "app=web"}, ""},
	} {
		var n Flags
		cmd := &cobra.Command{Use: "x"}
		n.Add(cmd)
		if err := cmd.ParseFlags(c.args); err != nil {
			t.Fatal(err)
		}
		err := n.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.args, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || cmdutil.ExitCode(err) != 2):
			t.Errorf("%v: %v, want exit 2 about %s", c.args, err, c.want)
		}
	}
}
