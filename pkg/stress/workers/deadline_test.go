package workers

import (
	"testing"
	"time"

	pstress "github.com/osctl/osctl/pkg/stress"
)

// TestDefaultDeadline: twice what a run may take, at least an hour; a run of N requests at full
// speed, whose length is not known, gets a day, so that the deadline never ends a long load.
func TestDefaultDeadline(t *testing.T) {
	cases := []struct {
		name string
		cfg  pstress.Config
		want time.Duration
	}{
		{"requests at full speed", pstress.Config{Profile: pstress.ProfileOpenStudio, Requests: 5_000_000, SettleTimeout: time.Minute}, 24 * time.Hour},
		{"a short duration", pstress.Config{Profile: pstress.ProfileHTTP, Duration: 10 * time.Minute, SettleTimeout: time.Minute}, time.Hour},
		{"a long duration", pstress.Config{Profile: pstress.ProfileHTTP, Duration: 2 * time.Hour, SettleTimeout: time.Minute}, 2 * (2*time.Hour + 6*time.Minute)},
		{"requests at a rate", pstress.Config{Profile: pstress.ProfileHTTP, Requests: 36000, Rate: 10, SettleTimeout: time.Minute}, 2 * (time.Hour + 6*time.Minute)},
	}
	for _, c := range cases {
		if got := DefaultDeadline(c.cfg); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
