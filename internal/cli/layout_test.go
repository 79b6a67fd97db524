package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
)

// goList runs `go list -json args...` in the module and decodes its stream of packages.
func goList(t *testing.T, args ...string) []listedPackage {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Dir = moduleRoot(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v: %s", args, err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list %v: decoding: %v", args, err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

type listedPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
	Deps       []string
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestLibrariesKnowNoFlagsOrTests: no package under pkg/ depends, even through another module,
// on cobra or pflag, and none imports testing outside its _test.go files (docs/architecture.md).
func TestLibrariesKnowNoFlagsOrTests(t *testing.T) {
	for _, p := range goList(t, "-deps=false", "./pkg/...") {
		for _, imp := range p.Imports {
			if imp == "testing" {
				t.Errorf("%s imports testing outside its tests", p.ImportPath)
			}
		}
		for _, d := range p.Deps {
			if strings.HasPrefix(d, "github.com/spf13/cobra") || strings.HasPrefix(d, "github.com/spf13/pflag") {
				t.Errorf("%s depends on %s", p.ImportPath, d)
			}
		}
	}
}

// TestStressCommandStaysGlue: osctl stress keeps the flags, files, progress and printing, in at
// most about 400 lines, and of the internal packages imports only cmdutil and output.
func TestStressCommandStaysGlue(t *testing.T) {
	pkgs := goList(t, "./internal/cli/stress")
	if len(pkgs) != 1 {
		t.Fatalf("go list ./internal/cli/stress: %d packages", len(pkgs))
	}
	p := pkgs[0]
	lines := 0
	for _, f := range p.GoFiles {
		fh, err := os.Open(filepath.Join(p.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			lines++
		}
		_ = fh.Close()
	}
	if lines > 420 {
		t.Errorf("internal/cli/stress has %d lines without tests; keep it at most about 400 (move the work into pkg/stress or a subcommand's package)", lines)
	}
	for _, imp := range p.Imports {
		if strings.HasPrefix(imp, "github.com/osctl/osctl/internal/") && !strings.HasPrefix(imp, "github.com/osctl/osctl/internal/cli/stress/") &&
			imp != "github.com/osctl/osctl/internal/cli/cmdutil" && imp != "github.com/osctl/osctl/internal/cli/output" {
			t.Errorf("internal/cli/stress imports %s; of the internal packages only cmdutil, output and its own flag packages", imp)
		}
	}
}

// TestStressSubcommandsImportNotTheirParent: the packages beneath internal/cli/stress (judge,
// cleanup, worker, the flag packages, shared) import what they share with osctl stress from
// internal/cli/stress/shared, never osctl stress itself (as cli/cli's pkg/cmd/pr/shared).
func TestStressSubcommandsImportNotTheirParent(t *testing.T) {
	const parent = "github.com/osctl/osctl/internal/cli/stress"
	pkgs := goList(t, "./internal/cli/stress/...")
	if len(pkgs) < 3 {
		t.Fatalf("go list ./internal/cli/stress/...: %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		if p.ImportPath == parent {
			continue
		}
		for _, d := range p.Deps {
			if d == parent {
				t.Errorf("%s depends on its parent %s; share through %s/shared", p.ImportPath, parent, parent)
			}
		}
	}
}
