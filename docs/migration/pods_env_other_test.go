//go:build !linux

package migration_test

import "testing"

// webTierEnv skips: real pods run on Linux only.
func webTierEnv(t *testing.T, _ string) []string {
	t.Helper()
	t.Skip("pods blocks need a real node, which runs on Linux only")
	return nil
}
