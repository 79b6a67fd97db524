package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/cli/cmdutil"
)

// As the kubectl plugin, the usage line and the usage-error hint say "kubectl osctl"; run as
// itself, "osctl".
func TestDisplayNameAsKubectlPlugin(t *testing.T) {
	for _, tc := range []struct {
		argv0 string
		args  []string
		want  string
	}{
		{"/root/.krew/bin/kubectl-osctl", []string{"locks", "inspect", "--help"}, "Usage:\n  kubectl osctl locks inspect "},
		{"/root/.krew/bin/kubectl-osctl", []string{"locks", "inspect", "--no-such-flag"}, "Run 'kubectl osctl locks inspect --help' for usage."},
		{"/usr/local/bin/osctl", []string{"locks", "inspect", "--help"}, "Usage:\n  osctl locks inspect "},
		{"/usr/local/bin/osctl", []string{"locks", "inspect", "--no-such-flag"}, "Run 'osctl locks inspect --help' for usage."},
	} {
		io, _, out, errOut := cmdutil.Test()
		f := cmdutil.New("test")
		f.IO = io
		root := NewCmdRoot(f)
		setDisplayName(root, tc.argv0)
		execute(context.Background(), f, root, tc.args)
		if got := out.String() + errOut.String(); !strings.Contains(got, tc.want) {
			t.Errorf("argv[0] %s, %v: output should contain %q:\n%.600s", tc.argv0, tc.args, tc.want, got)
		}
	}
}
