package rollout

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// durationFlag is a duration that also accepts days ("7d"), for --max-report-age.
type durationFlag struct{ d time.Duration }

func (f *durationFlag) String() string { return f.d.String() }

func (f *durationFlag) Set(s string) error {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days <= 0 {
			return fmt.Errorf("%q: use a duration like 24h or 7d", s)
		}
		f.d = time.Duration(days) * 24 * time.Hour
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return fmt.Errorf("%q: use a positive duration like 24h or 7d", s)
	}
	f.d = d
	return nil
}

func (f *durationFlag) Type() string { return "duration" }
