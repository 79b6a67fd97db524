package main

import (
	"archive/tar"
	"compress/gzip"
	"debug/elf"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testDist: make dist writes every artefact, sha256sum -c passes, a second run writes the same
// checksums.txt, and the linux/amd64 osctl is static, stripped and reports the archives' version.
func testDist(t *testing.T, c *checkout) {
	c.make("dist")
	first, err := os.ReadFile(c.path("dist", "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	archives, _ := filepath.Glob(c.path("dist", "osctl_*_linux_amd64.tar.gz"))
	if len(archives) != 1 {
		t.Fatalf("dist has %d linux/amd64 archives, want 1", len(archives))
	}
	version := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(archives[0]), "osctl_"), "_linux_amd64.tar.gz")
	if !versionRE.MatchString(version) || strings.Contains(version, "dirty") {
		t.Fatalf("a fresh clone's version %q: want the tag or a clean pseudo-version", version)
	}
	want := []string{"osctl_" + version + "_sbom.cdx.json", "osctl-image-linux-amd64.tar", "krew/osctl.yaml"}
	for _, p := range platforms() {
		want = append(want, archiveName(version, strings.Split(p, "/")[0], strings.Split(p, "/")[1]))
	}
	for _, name := range want {
		if !strings.Contains(string(first), "  "+name+"\n") {
			t.Errorf("checksums.txt lacks %s:\n%s", name, first)
		}
	}
	if _, err := os.Stat(c.path("dist", "image", "index.json")); err != nil {
		t.Errorf("no OCI layout in dist/image: %v", err)
	}
	checkSBOM(t, c.path("dist", "osctl_"+version+"_sbom.cdx.json"))
	run(t, c.path("dist"), nil, "sha256sum", "--strict", "-c", "checksums.txt")

	c.make("dist")
	second, err := os.ReadFile(c.path("dist", "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if string(first) != string(second) {
		t.Fatalf("two make dist runs of one commit differ:\n%s\n---\n%s", first, second)
	}
	t.Logf("checksums.txt, the same twice:\n%s", first)

	bin := extractMember(t, archives[0], "osctl", t.TempDir())
	checkStaticStripped(t, bin)
	if got := osctlVersion(t, nil, bin); got != version {
		t.Errorf("the archive's osctl version = %q, want the archive's %q", got, version)
	}
	c.version = version
}

// checkSBOM: a CycloneDX JSON BOM whose main component is osctl's module, listing its modules.
func checkSBOM(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var bom struct {
		BOMFormat  string
		Metadata   struct{ Component struct{ Name string } }
		Components []struct{ Name string }
	}
	if err := json.Unmarshal(data, &bom); err != nil {
		t.Fatalf("SBOM: %v", err)
	}
	names := []string{}
	for _, c := range bom.Components {
		names = append(names, c.Name)
	}
	if bom.BOMFormat != "CycloneDX" || bom.Metadata.Component.Name != "github.com/osctl/osctl" ||
		!slices.Contains(names, "github.com/spf13/cobra") {
		t.Errorf("SBOM: format %q, component %q, %d components (cobra among them: %v)", bom.BOMFormat,
			bom.Metadata.Component.Name, len(names), slices.Contains(names, "github.com/spf13/cobra"))
	}
}

// extractMember writes the archive's member name into dir and returns its path; it fails the
// test if the archive does not hold README.md and LICENSE beside osctl.
func extractMember(t *testing.T, archive, name, dir string) string {
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var members []string
	dest := filepath.Join(dir, name)
	walkTar(t, zr, func(h *tar.Header, body io.Reader) {
		members = append(members, h.Name)
		if h.Name == name {
			writeMember(t, body, dest, os.FileMode(h.Mode))
		}
	})
	if !slices.Contains(members, name) || !slices.Contains(members, "README.md") || !slices.Contains(members, "LICENSE") {
		t.Fatalf("%s holds %v: want osctl, README.md and LICENSE", archive, members)
	}
	return dest
}

// checkStaticStripped: no program interpreter or dynamic section (static), no symbol table or
// DWARF (stripped), and at most maxBinaryBytes.
func checkStaticStripped(t *testing.T, path string) {
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("%s has a %v program header: not static", path, p.Type)
		}
	}
	for _, s := range []string{".symtab", ".debug_info", ".zdebug_info"} {
		if f.Section(s) != nil {
			t.Errorf("%s has %s: not stripped", path, s)
		}
	}
	if info, err := os.Stat(path); err == nil {
		t.Logf("linux/amd64 osctl: %.1f MB, static, stripped", float64(info.Size())/1e6)
		if info.Size() > maxBinaryBytes {
			t.Errorf("%s is %d bytes, over %d (scripts/binsize.go lists what weighs what)", path, info.Size(), maxBinaryBytes)
		}
	}
}

// maxBinaryBytes is the most the released linux/amd64 osctl may weigh (issue 36), as
// internal/cli's TestStaticLinuxBinarySize checks on every test run.
const maxBinaryBytes = 60_000_000
