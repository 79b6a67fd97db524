package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// krewTools is where make krew-tools put krew and validate-krew-manifest.
func krewTools(t *testing.T, c *checkout) string {
	if dir := os.Getenv("OSCTL_KREW_TOOLS"); dir != "" {
		return dir
	}
	c.make("krew-tools")
	cache := os.Getenv("OSCTL_CACHE")
	if cache == "" {
		cache = "/var/cache/osctl"
	}
	return filepath.Join(cache, "tools", "krew-v0.4.3")
}

// testKrew: krew's validate-krew-manifest accepts dist/krew/osctl.yaml (its install step
// downloads the GitHub release, so it is skipped); kubectl krew install --manifest --archive
// installs every platform's archive against the manifest's sha256; linux/amd64's runs as
// kubectl osctl and says so in its help.
func testKrew(t *testing.T, c *checkout) {
	tools := krewTools(t, c)
	manifest := c.path("dist", "krew", "osctl.yaml")
	run(t, ".", nil, filepath.Join(tools, "validate-krew-manifest"), "-manifest", manifest, "-skip-install")

	bin := t.TempDir() // kubectl finds krew as the plugin kubectl-krew
	if err := os.Symlink(filepath.Join(tools, "krew"), filepath.Join(bin, "kubectl-krew")); err != nil {
		t.Fatal(err)
	}
	for _, p := range platforms() {
		goos, goarch, _ := strings.Cut(p, "/")
		root := t.TempDir()
		env := []string{"KREW_ROOT=" + root, "KREW_OS=" + goos, "KREW_ARCH=" + goarch, "KREW_NO_UPGRADE_CHECK=1",
			"PATH=" + bin + ":" + filepath.Join(root, "bin") + ":" + os.Getenv("PATH")}
		archive := c.path("dist", archiveName(c.version, goos, goarch))
		run(t, ".", env, "kubectl", "krew", "install", "--manifest="+manifest, "--archive="+archive)
		if p != "linux/amd64" {
			continue
		}
		if got := osctlVersion(t, env, "kubectl", "osctl"); got != c.version {
			t.Errorf("kubectl osctl version = %q, want %q", got, c.version)
		}
		help := run(t, ".", env, "kubectl", "osctl", "locks", "--help")
		if !strings.Contains(help, "\n  kubectl osctl locks [command]\n") {
			t.Errorf("kubectl osctl locks --help does not name kubectl osctl:\n%s", help)
		}
	}
}
