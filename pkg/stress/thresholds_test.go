package stress

import (
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/setting"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

// TestConfigThresholds: a Config's thresholds are verdict's: DefaultConfig starts from
// verdict.Defaults, WithDefaults reads a Grace of 0 as the default and keeps a 0 requirement,
// and Check refuses a bad threshold with verdict's one Check, as a *ConfigError naming it.
func TestConfigThresholds(t *testing.T) {
	if d := DefaultConfig(); d.Thresholds != verdict.Defaults() {
		t.Errorf("DefaultConfig's thresholds %+v, want verdict.Defaults() %+v", d.Thresholds, verdict.Defaults())
	}
	c := Config{Profile: ProfileJobs, Targets: []*url.URL{{Scheme: "http", Host: "127.0.0.1:1"}}, Requests: 1}.WithDefaults()
	if c.Grace != verdict.Duration(verdict.DefaultGrace) || c.MinAcknowledged != 0 || c.MinContended != 0 || c.MaxActive != 0 {
		t.Errorf("WithDefaults: %+v, want Grace %s and no requirement", c.Thresholds, verdict.DefaultGrace)
	}
	c.Grace = verdict.Duration(3 * time.Second)
	if g := c.WithDefaults().Grace; g != c.Grace {
		t.Errorf("WithDefaults changed a Grace given: %s", g)
	}
	if err := c.Check(); err != nil {
		t.Fatalf("a good jobs Config: %v", err)
	}
	c.MinContended = 1.5
	err := c.Check()
	var ce *ConfigError
	se, ok := setting.As(err)
	if !errors.As(err, &ce) || !ok || se.Name != "MinContended" || se.Error() != (verdict.Thresholds{MinContended: 1.5}).Check().Error() {
		t.Errorf("MinContended 1.5: %v, want verdict's error as a *ConfigError", err)
	}
}
