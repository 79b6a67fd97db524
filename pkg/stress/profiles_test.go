package stress

import (
	"testing"

	"github.com/osctl/osctl/pkg/stress/history"
)

// TestProfilesAgree: every profile of history.Profiles has its stage and its load here, under the
// name the constants give, and nothing else does.
func TestProfilesAgree(t *testing.T) {
	names := map[string]string{ProfileOpenStudio: history.OpenStudio.Name, ProfileJobs: history.Jobs.Name, ProfileHTTP: history.HTTP.Name}
	for c, h := range names {
		if c != h {
			t.Errorf("constant %q names history's profile %q", c, h)
		}
	}
	if len(registry) != len(history.Profiles) {
		t.Fatalf("%d profiles run here for %d profiles in history", len(registry), len(history.Profiles))
	}
	for _, p := range history.Profiles {
		if r := registry[p.Name]; r.stage == nil || r.source == nil {
			t.Errorf("profile %s has no stage or no load", p.Name)
		}
		if got, ok := history.ProfileNamed(p.Name); !ok || got.Name != p.Name {
			t.Errorf("ProfileNamed(%q) = %+v, %v", p.Name, got, ok)
		}
	}
	if _, ok := history.ProfileNamed("nope"); ok {
		t.Error("an unknown profile was found")
	}
}
