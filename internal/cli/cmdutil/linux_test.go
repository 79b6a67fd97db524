package cmdutil

import (
	"strings"
	"testing"
)

// TestNeedsLinux: on Linux nothing is refused; elsewhere one line names the command, the system
// and why, and exits 2.
func TestNeedsLinux(t *testing.T) {
	if err := needsLinux("linux", "sandbox", "it starts process groups"); err != nil {
		t.Fatalf("on Linux: %v", err)
	}
	err := needsLinux("darwin", "sandbox", "it starts process groups")
	if err == nil || err.Error() != "osctl sandbox needs Linux (this is darwin): it starts process groups" || strings.Contains(err.Error(), "\n") {
		t.Fatalf("on darwin: %v", err)
	}
	if ExitCode(err) != ExitError {
		t.Fatalf("exit %d, want %d", ExitCode(err), ExitError)
	}
}
