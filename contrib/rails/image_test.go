package rails_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
)

// upstreamServer is OpenStudio Server v3.7.0's server/ (third_party/README.md).
var upstreamServer = filepath.Join("..", "..", "third_party", "openstudio-server-v3.7.0", "server")

// copyTree copies src into dst (files and directories only).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// snapshot maps each file under root to its content.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		m[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// installSh runs install.sh on app and returns its output and exit code.
func installSh(t *testing.T, app string) (string, int) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Require(t, false, "git for install.sh's git apply (apt-get install -y git)")
	}
	out, err := exec.Command("sh", "install.sh", app).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// dockerfileCopies are the files the Dockerfile's patch stage copies into the image
// (`cp /src/server/FILE /out/server/DIR/`).
func dockerfileCopies(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, m := range regexp.MustCompile(`cp /src/(server/\S+) /out/`).FindAllStringSubmatch(string(b), -1) {
		files = append(files, m[1])
	}
	slices.Sort(files)
	return files
}

// TestImageInstall runs install.sh, which the image build runs, on upstream's v3.7.0 server/:
// it changes exactly the files the Dockerfile copies into the image, installs this osctl_lock.rb,
// leaves Ruby that parses, and refuses (changing nothing) a tree already patched or not v3.7.0's.
func TestImageInstall(t *testing.T) {
	t.Parallel()
	app := t.TempDir()
	copyTree(t, upstreamServer, filepath.Join(app, "server"))
	before := snapshot(t, app)
	if out, code := installSh(t, app); code != 0 {
		t.Fatalf("install.sh: exit %d\n%s", code, out)
	}
	after := snapshot(t, app)
	var changed []string
	for f, s := range after {
		if before[f] != s {
			changed = append(changed, f)
		}
	}
	slices.Sort(changed)
	if copies := dockerfileCopies(t); !slices.Equal(changed, copies) {
		t.Fatalf("install.sh changed %v; the Dockerfile copies %v into the image", changed, copies)
	}
	mod, err := os.ReadFile("osctl_lock.rb")
	if err != nil {
		t.Fatal(err)
	}
	if after[filepath.Join("server", "lib", "osctl_lock.rb")] != string(mod) {
		t.Fatal("server/lib/osctl_lock.rb is not contrib/rails/osctl_lock.rb")
	}
	ruby := requireRuby(t)
	for _, f := range changed {
		if out, err := exec.Command(ruby, "-c", filepath.Join(app, f)).CombinedOutput(); err != nil {
			t.Errorf("ruby -c %s: %v\n%s", f, err, out)
		}
	}

	out, code := installSh(t, app)
	if code != 1 || !strings.Contains(out, "already has server/config/initializers/osctl_lock.rb") {
		t.Fatalf("install.sh on a patched tree: exit %d\n%s", code, out)
	}
	if again := snapshot(t, app); len(again) != len(after) {
		t.Fatalf("install.sh on a patched tree changed it (%d files, was %d)", len(again), len(after))
	}

	other := t.TempDir()
	copyTree(t, upstreamServer, filepath.Join(other, "server"))
	model := filepath.Join(other, "server", "app", "models", "analysis.rb")
	b, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	// Another release's analysis.rb: the lines the patch changes are not there.
	if err := os.WriteFile(model, []byte(strings.ReplaceAll(string(b), "::Zip.sort_entries = true", "::Zip.sort_entries = false")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = installSh(t, other)
	if code != 1 || !strings.Contains(out, "written for OpenStudio Server v3.7.0; nothing changed") {
		t.Fatalf("install.sh on another release: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(other, "server", "lib", "osctl_lock.rb")); !os.IsNotExist(err) {
		t.Fatalf("install.sh on another release left server/lib/osctl_lock.rb (%v)", err)
	}
}
