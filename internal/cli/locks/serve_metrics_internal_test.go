package locks

import (
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/lock/ops"
)

// TestScrapeBudget: a scrape waits most of the timeout Prometheus says, at least 10 ms, at most
// the scan's own timeout (also without the header).
func TestScrapeBudget(t *testing.T) {
	for h, want := range map[string]time.Duration{"": ops.DefaultScanTimeout, "x": ops.DefaultScanTimeout, "-1": ops.DefaultScanTimeout,
		"10": 9750 * time.Millisecond, "0.5": 450 * time.Millisecond, "0.001": 10 * time.Millisecond, "120": ops.DefaultScanTimeout} {
		if got := scrapeBudget(h); got != want {
			t.Errorf("scrapeBudget(%q) = %v, want %v", h, got, want)
		}
	}
}
