package verdict

import "time"

// Overrides change some of a run's thresholds when it is judged again (osctl stress judge's
// flags): a nil field keeps the run's own.
type Overrides struct {
	MinAcknowledged *float64
	MinContended    *float64
	MaxActive       *int
	Grace           *time.Duration
}

// Apply returns t with the fields o sets replaced.
func (o Overrides) Apply(t Thresholds) Thresholds {
	if o.MinAcknowledged != nil {
		t.MinAcknowledged = *o.MinAcknowledged
	}
	if o.MinContended != nil {
		t.MinContended = *o.MinContended
	}
	if o.MaxActive != nil {
		t.MaxActive = *o.MaxActive
	}
	if o.Grace != nil {
		t.Grace = Duration(*o.Grace)
	}
	return t
}

// Check says which override cannot be used, as Thresholds.Check does.
func (o Overrides) Check() error { return o.Apply(Thresholds{}).Check() }
