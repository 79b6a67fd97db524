package cli

import (
	"runtime/debug"
	"testing"
)

// TestVersionOf: ldflags win; else the module version Go stamped (a go install of a tag, or a
// checkout's pseudo-version); a "(devel)" stamp falls back to the VCS settings, never "dev".
func TestVersionOf(t *testing.T) {
	vcs := func(rev, at, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: modified}}
	}
	rev := "5ae7ac9abcde0123456789abcdef0123456789ab"
	for _, tc := range []struct {
		name, ldflags string
		bi            *debug.BuildInfo
		want          string
	}{
		{"ldflags", "v1.4.0", &debug.BuildInfo{Main: debug.Module{Version: "v1.3.0"}}, "v1.4.0"},
		{"go install of a tag", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.3.0"}}, "v1.3.0"},
		{"go build in a checkout", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261206230000-5ae7ac9abcde+dirty"}}, "v0.0.0-20261206230000-5ae7ac9abcde+dirty"},
		{"devel, clean", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "2026-12-06T23:00:00Z", "false")}, "v0.0.0-20261206230000-5ae7ac9abcde"},
		{"devel, modified", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "2026-12-06T23:00:00Z", "true")}, "v0.0.0-20261206230000-5ae7ac9abcde+dirty"},
		{"devel without vcs", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
		{"no build info", "", nil, "devel"},
	} {
		if got := versionOf(tc.ldflags, tc.bi); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
