package cli_test

import (
	"debug/buildinfo"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// moduleRoot is the directory of osctl's go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// goIn runs go with args in dir, with env added to this process's environment.
func goIn(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s go %s: %v\n%s", strings.Join(env, " "), strings.Join(args, " "), err, out)
	}
}

// TestBuildsForDarwin: osctl compiles and vets for macOS on both architectures (SREs run kubectl
// plugins from their laptops); the Linux-only parts are behind build tags.
func TestBuildsForDarwin(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the module")
	}
	root := moduleRoot(t)
	for _, arch := range []string{"arm64", "amd64"} {
		env := []string{"GOOS=darwin", "GOARCH=" + arch, "CGO_ENABLED=0"}
		goIn(t, root, env, "build", "-o", filepath.Join(t.TempDir(), "osctl"), "./cmd/osctl")
		goIn(t, root, env, "vet", "./...")
	}
}

// TestBuildWithoutLdflagsNamesItsCommit: `go build ./cmd/osctl` in a checkout, without ldflags,
// reports the version Go stamped, which names the checkout's commit (never "dev"). The build is
// in a clone of HEAD: Go stamps nothing in a git worktree (its .git is a file), as this one may
// be.
func TestBuildWithoutLdflagsNamesItsCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds osctl")
	}
	root := moduleRoot(t)
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	clone := filepath.Join(t.TempDir(), "osctl")
	if out, err := exec.Command("git", "clone", "--quiet", "--shared", root, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	bin := filepath.Join(t.TempDir(), "osctl")
	// GOFLAGS=-buildvcs=false (in the environment or go env) would turn the stamp off: build as a
	// plain go build in a checkout does (-trimpath only shares the build cache with the module's).
	goIn(t, clone, []string{"CGO_ENABLED=0", "GOFLAGS=-buildvcs=true"}, "build", "-trimpath", "-o", bin, "./cmd/osctl")
	out, err := exec.Command(bin, "version", "-o", "json").Output()
	if err != nil {
		t.Fatalf("osctl version: %v", err)
	}
	var v struct{ Version string }
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("osctl version -o json: %v: %s", err, out)
	}
	// A checkout of a tag is stamped with the tag, any other with the commit.
	tags, _ := exec.Command("git", "-C", root, "tag", "--points-at", "HEAD").Output()
	commit := strings.TrimSpace(string(head))[:12]
	pseudo := strings.HasPrefix(v.Version, "v0.0.0-") && strings.HasSuffix(v.Version, "-"+commit)
	if !pseudo && !slices.Contains(strings.Fields(string(tags)), v.Version) {
		t.Fatalf("osctl version is %q, want the pseudo-version of commit %s (or its tag %s)", v.Version, commit, tags)
	}
}

// maxBinaryBytes is the most the static, stripped linux/amd64 osctl may weigh: 60 MB (issue 36;
// 54.7 MB with the narrow Kubernetes clientset of pkg/k8s, 62.6 MB with client-go's full one).
const maxBinaryBytes = 60_000_000

// chartModules are parts of module paths the binary must not link: the plotting stack (gonum/plot
// with its LaTeX, PDF, font and image backends) that the report's SVG charts replaced.
var chartModules = []string{"gonum", "plot", "latex", "pdf", "freetype", "fonts", "golang.org/x/image"}

// TestStaticLinuxBinarySize: the static, stripped, -trimpath linux/amd64 osctl, built as make
// dist builds it, weighs at most maxBinaryBytes and links none of chartModules. A size is not a
// wall-clock figure: a build of one commit with one toolchain always weighs the same.
func TestStaticLinuxBinarySize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds osctl")
	}
	bin := filepath.Join(t.TempDir(), "osctl")
	goIn(t, moduleRoot(t), []string{"GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0"},
		"build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./cmd/osctl")
	info, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > maxBinaryBytes {
		t.Errorf("linux/amd64 osctl (static, stripped) is %d bytes, over %d: list what weighs what with scripts/binsize.go", info.Size(), maxBinaryBytes)
	}
	t.Logf("linux/amd64 osctl: %d bytes (%.1f MB) of at most %.0f MB", info.Size(), float64(info.Size())/1e6, maxBinaryBytes/1e6)
	bi, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatalf("reading the build info of %s: %v", bin, err)
	}
	for _, m := range bi.Deps {
		for _, c := range chartModules {
			if strings.Contains(strings.ToLower(m.Path), c) {
				t.Errorf("osctl links %s %s (%q): the charts are hand-written SVG", m.Path, m.Version, c)
			}
		}
	}
}
