package stress

import (
	"testing"

	"github.com/osctl/osctl/pkg/stress/history"
)

// TestProfilesAgree: every built-in profile of history.Profiles is registered (by
// pkg/stress/profiles, which this package's tests import: register_test.go) under the name the
// constants give, with the capabilities history gives it.
func TestProfilesAgree(t *testing.T) {
	names := map[string]string{ProfileOpenStudio: history.OpenStudio.Name, ProfileJobs: history.Jobs.Name, ProfileHTTP: history.HTTP.Name}
	for c, h := range names {
		if c != h {
			t.Errorf("constant %q names history's profile %q", c, h)
		}
	}
	for _, hp := range history.Profiles {
		p, ok := ProfileOf(hp.Name)
		if !ok {
			t.Errorf("profile %s is not registered", hp.Name)
			continue
		}
		if k := p.Kind(); k.Name != hp.Name || k.Files != hp.Files || k.Jobs != hp.Jobs || k.Records != hp.Records {
			t.Errorf("profile %s registers as %+v, history has %+v", hp.Name, k, hp)
		}
		if got, ok := history.ProfileNamed(hp.Name); !ok || got.Name != hp.Name {
			t.Errorf("ProfileNamed(%q) = %+v, %v", hp.Name, got, ok)
		}
	}
	if got := ProfileNames(); len(got) < 3 || got[0] != ProfileOpenStudio {
		t.Errorf("registered profiles %v: want openstudio first", got)
	}
	if _, ok := history.ProfileNamed("nope"); ok {
		t.Error("an unknown profile was found")
	}
	if _, ok := ProfileOf("nope"); ok {
		t.Error("an unknown profile was registered")
	}
}
