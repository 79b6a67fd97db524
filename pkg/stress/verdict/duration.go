package verdict

import (
	"fmt"
	"time"
)

// Duration is a time.Duration written as its String ("1.5s") in JSON, as the history's header
// has always kept Grace.
type Duration time.Duration

// String is time.Duration's.
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalText writes d as time.Duration's String.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads what time.ParseDuration reads.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q: not a duration (such as 1s or 1m30s)", b)
	}
	*d = Duration(v)
	return nil
}
