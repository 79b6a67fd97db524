package stress

import (
	"os"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.CleanupBinary()
	os.Exit(code)
}
