package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// checkout is a fresh clone of this repository's HEAD, in which make runs as a user's would.
type checkout struct {
	t       *testing.T
	dir     string
	version string // what `make dist` named the archives
}

// newCheckout clones the repository that holds this test into a temporary directory.
func newCheckout(t *testing.T) *checkout {
	t.Helper()
	root := strings.TrimSpace(run(t, ".", nil, "git", "rev-parse", "--show-toplevel"))
	dir := filepath.Join(t.TempDir(), "osctl")
	run(t, ".", nil, "git", "clone", "-q", root, dir)
	return &checkout{t: t, dir: dir}
}

// make runs make in the checkout with args, timing it; PLATFORMS comes from
// OSCTL_DIST_PLATFORMS when set (e.g. "linux/amd64 linux/arm64" where darwin does not build).
func (c *checkout) make(args ...string) string {
	c.t.Helper()
	if p := os.Getenv("OSCTL_DIST_PLATFORMS"); p != "" {
		args = append(args, "PLATFORMS="+p)
	}
	start := time.Now()
	out := run(c.t, c.dir, nil, "make", args...)
	c.t.Logf("make %s: %s", strings.Join(args, " "), time.Since(start).Round(time.Second))
	return out
}

func (c *checkout) path(elem ...string) string {
	return filepath.Join(append([]string{c.dir}, elem...)...)
}

// platforms is the PLATFORMS make dist built.
func platforms() []string {
	if p := os.Getenv("OSCTL_DIST_PLATFORMS"); p != "" {
		return strings.Fields(p)
	}
	return []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64"}
}

// run runs a command in dir (extra environment env) and fails the test with its output if it
// fails.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s", name, strings.Join(args, " "), dir, err, tail(out.String()))
	}
	return out.String()
}

func tail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}

// osctlVersion runs `osctl version -o json` (or a kubectl plugin call) and returns its version.
func osctlVersion(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	out := run(t, ".", env, name, append(args, "version", "-o", "json")...)
	var v struct{ Version string }
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Version == "" {
		t.Fatalf("%s version: %q is not osctl's version JSON: %v", name, out, err)
	}
	return v.Version
}

var versionRE = regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)

// The release end to end, on a fresh clone: make dist twice (same checksums.txt), the archives'
// osctl, the krew manifest installed into a temporary KREW_ROOT and run as kubectl osctl, and
// make image pushed to a registry on loopback.
func TestRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("builds osctl for every platform twice (minutes)")
	}
	c := newCheckout(t)
	t.Run("dist", func(t *testing.T) { c.t = t; testDist(t, c) })
	if c.version == "" {
		t.Fatal("make dist failed: nothing more to test")
	}
	t.Run("krew", func(t *testing.T) { c.t = t; testKrew(t, c) })
	t.Run("image", func(t *testing.T) { c.t = t; testImage(t, c) })
}
