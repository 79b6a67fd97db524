package rails_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const (
	patchFile = "openstudio-server-v3.7.0.patch"
	upstream  = "../../third_party/openstudio-server-v3.7.0"
	railsDoc  = "../../docs/migration/rails.md"
)

// TestPatchAppliesToUpstream applies the patch to OpenStudio Server v3.7.0's server/ app (the
// copy in third_party/; git apply, no fuzz), installs the module as server/lib/osctl_lock.rb as the
// guide says, and checks that every Ruby file it touches parses (ruby -c; -wc for the files that
// are wholly osctl's) and touches only application code. The patched app itself runs in
// internal/realserver's tests.
func TestPatchAppliesToUpstream(t *testing.T) {
	t.Parallel()
	ruby := requireRuby(t)
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git: %v", err)
	}
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", filepath.Join(upstream, "server"), dir).CombinedOutput(); err != nil {
		t.Fatalf("copy upstream: %v\n%s", err, out)
	}
	patch, err := filepath.Abs(patchFile)
	if err != nil {
		t.Fatal(err)
	}
	apply := exec.Command(git, "apply", "--verbose", "--whitespace=error-all", patch)
	apply.Dir = dir
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply %s to OpenStudio Server v3.7.0: %v\n%s", patchFile, err, out)
	}
	mod, err := os.ReadFile("osctl_lock.rb")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "server", "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "server", "lib", "osctl_lock.rb"), mod, 0o644); err != nil {
		t.Fatal(err)
	}
	// Upstream's own files have warnings of their own (unused variables): parse them; the files
	// that are wholly ours must also be free of warnings.
	for f, flag := range map[string]string{
		"app/controllers/analyses_controller.rb": "-c", "app/models/analysis.rb": "-c",
		"config/initializers/osctl_lock.rb": "-wc", "lib/osctl_lock.rb": "-wc",
	} {
		out, err := exec.Command(ruby, flag, filepath.Join(dir, "server", f)).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "Syntax OK" {
			t.Errorf("ruby %s server/%s: %v\n%s", flag, f, err, out)
		}
	}
	// Only application code: never the deployment's config with host names, nor the Gemfile.
	for _, f := range patchedFiles(t, patch) {
		if !strings.HasPrefix(f, "server/app/") && !strings.HasPrefix(f, "server/config/initializers/") {
			t.Errorf("the patch touches %s: it may touch only application code (server/app, server/config/initializers)", f)
		}
	}
	analysis := patchedHas(t, dir, "app/models/analysis.rb",
		"storage: :osctl_atomic", "OsctlLock::SharedFiles.replace_dir(shared_directory_path", "::Zip.sort_entries = false")
	patchedHas(t, dir, "config/initializers/osctl_lock.rb",
		"return super if @queued_for_write.empty?", "raise \"osctl_lock: neither REDLOCK_URLS nor REDIS_URL is set", "OSCTL_LOCK=off")
	if strings.Contains(analysis, "SKIPPED: #{f.name}, already existed") {
		t.Error("patched analysis.rb still skips files that already exist")
	}
}

// patchedHas reads the patched server/rel under dir and checks that it holds every want.
func patchedHas(t *testing.T, dir, rel string, wants ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "server", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range wants {
		if !strings.Contains(string(b), want) {
			t.Errorf("patched %s lacks %q", rel, want)
		}
	}
	return string(b)
}

// patchedFiles lists the files a patch changes (its "+++ b/..." lines).
func patchedFiles(t *testing.T, patch string) []string {
	b, err := os.ReadFile(patch)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if f, ok := strings.CutPrefix(line, "+++ b/"); ok {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s changes no file", patch)
	}
	return out
}

// TestRailsGuideShowsThePatch: the ```diff block of docs/migration/rails.md is the patch file,
// byte for byte, so the guide cannot drift from what TestPatchAppliesToUpstream applies.
func TestRailsGuideShowsThePatch(t *testing.T) {
	want, err := os.ReadFile(patchFile)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(railsDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []string
	var cur *strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```diff":
			cur = &strings.Builder{}
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 {
		t.Fatalf("%s has %d ```diff blocks, want 1 (the patch)", railsDoc, len(blocks))
	}
	if blocks[0] != string(want) {
		t.Fatalf("the ```diff block of %s differs from %s: regenerate it from the patch file", railsDoc, patchFile)
	}
}
