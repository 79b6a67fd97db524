package workers

import (
	"testing"
	"time"

	pstress "github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/jobs"
	"github.com/osctl/osctl/pkg/stress/openstudio"
)

// TestDefaultDeadline: twice what a run may take, at least an hour; a run of N requests at full
// speed, whose length is not known, gets a day, so that the deadline never ends a long load. The
// profile's wait after the load counts: openstudio's settle timeout, jobs' job timeout.
func TestDefaultDeadline(t *testing.T) {
	settle := openstudio.Options{SettleTimeout: time.Minute}
	cases := []struct {
		name string
		cfg  pstress.Config
		want time.Duration
	}{
		{"requests at full speed", pstress.Config{Profile: pstress.ProfileOpenStudio, Requests: 5_000_000, Options: settle}, 24 * time.Hour},
		{"a short duration", pstress.Config{Profile: pstress.ProfileOpenStudio, Duration: 10 * time.Minute, Options: settle}, time.Hour},
		{"a long duration", pstress.Config{Profile: pstress.ProfileOpenStudio, Duration: 2 * time.Hour, Options: settle}, 2 * (2*time.Hour + 6*time.Minute)},
		{"requests at a rate", pstress.Config{Profile: pstress.ProfileOpenStudio, Requests: 36000, Rate: 10, Options: settle}, 2 * (time.Hour + 6*time.Minute)},
		{"jobs followed", pstress.Config{Profile: pstress.ProfileJobs, Duration: 2 * time.Hour, Options: jobs.Options{JobTimeout: 30 * time.Minute}}, 2 * (2*time.Hour + 35*time.Minute)},
		{"http waits for nothing", pstress.Config{Profile: pstress.ProfileHTTP, Duration: 2 * time.Hour}, 2 * (2*time.Hour + 5*time.Minute)},
	}
	for _, c := range cases {
		if got := DefaultDeadline(c.cfg); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
