package acceptance

import (
	"os"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.RunMain(m)) }

// runOsctl runs osctl with args, bounded by 4 minutes.
func runOsctl(t *testing.T, args ...string) testenv.OsctlRun {
	t.Helper()
	return testenv.RunOsctl(t, 4*time.Minute, args...)
}
