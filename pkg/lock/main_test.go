package lock_test

import (
	"os"
	"testing"
)

// TestMain turns the test binary into a safety-test worker process when workerEnv is set, so
// the safety test contends with real separate processes without building another binary.
func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) != "" {
		os.Exit(runWorker())
	}
	os.Exit(m.Run())
}
