package stress

import (
	"net/url"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/setting"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

// TestConfigCheckNamesTheField: DefaultConfig with a target can run, and each invalid field is a
// *ConfigError whose setting error names that field by its Go name (the profiles' options:
// TestOptionsCheckNamesTheField).
func TestConfigCheckNamesTheField(t *testing.T) {
	target, _ := url.Parse("http://127.0.0.1:1")
	ok := DefaultConfig()
	ok.Targets = []*url.URL{target}
	if err := ok.Check(); err != nil {
		t.Fatalf("DefaultConfig with a target: %v", err)
	}
	zero := Config{Profile: ProfileHTTP, Targets: ok.Targets, Requests: 1}
	if err := zero.WithDefaults().Check(); err != nil {
		t.Fatalf("a zero Config with defaults filled: %v", err)
	}
	for _, tc := range []struct {
		field string
		edit  func(*Config)
	}{
		{"Profile", func(c *Config) { c.Profile = "nope" }},
		{"Targets", func(c *Config) { c.Targets = nil }},
		{"Concurrency", func(c *Config) { c.Concurrency = 0 }},
		{"Requests", func(c *Config) { c.Requests = -1 }},
		{"Requests", func(c *Config) { c.Requests = 0 }},
		{"MinAcknowledged", func(c *Config) { c.MinAcknowledged = 2 }},
		{"Timeout", func(c *Config) { c.Timeout = -time.Second }},
		{"Duration", func(c *Config) { c.Duration = -time.Second }},
		{"Grace", func(c *Config) { c.Grace = verdict.Duration(-time.Second) }},
		{"MaxActive", func(c *Config) { c.MaxActive = -1 }},
	} {
		c := ok
		tc.edit(&c)
		err := c.Check()
		se, found := setting.As(err)
		if !found || se.Name != tc.field {
			t.Errorf("%s: Check() = %v, want a setting error about %s", tc.field, err, tc.field)
		}
		var ce *ConfigError
		if !asConfigError(err, &ce) {
			t.Errorf("%s: %T is not a *ConfigError", tc.field, err)
		}
	}
}

func asConfigError(err error, ce **ConfigError) bool {
	c, ok := err.(*ConfigError)
	*ce = c
	return ok
}
