package testenv

import "testing"

// SkipIfShort skips t under `go test -short` (make test-short), the inner loop that leaves out the
// end-to-end harnesses: the control plane, real nodes, UML, Chromium, the real services, Ruby and
// slow runs of the osctl binary. why names what the test needs, as the skip message says.
func SkipIfShort(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: skips %s", why)
	}
}
