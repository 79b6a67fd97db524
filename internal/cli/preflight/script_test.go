package preflight_test

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/osctl/osctl/internal/testenv/scriptenv"
)

// TestScripts runs testdata/*.txtar against the real osctl binary: the exit codes and the main
// error messages of osctl preflight.
func TestScripts(t *testing.T) {
	scriptenv.Run(t, testscript.Params{Dir: "testdata"})
}
