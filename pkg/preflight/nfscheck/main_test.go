package nfscheck_test

import (
	"os"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.RunMain(m)) }
