package cli_test

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/osctl/osctl/internal/testenv/scriptenv"
)

// TestScripts runs testdata/*.txtar against the real osctl binary: usage errors and exit codes
// of the command tree.
func TestScripts(t *testing.T) {
	scriptenv.Run(t, testscript.Params{Dir: "testdata"})
}
