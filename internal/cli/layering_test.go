package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/osctl/osctl/internal/cli/cmdutil"
)

const module = "github.com/osctl/osctl/"

// area is a package's folder under pkg/ ("pkg/stress" for pkg/stress/detect).
func area(importPath string) string {
	rel := strings.TrimPrefix(importPath, module)
	parts := strings.SplitN(rel, "/", 3)
	if len(parts) < 2 || parts[0] != "pkg" {
		return ""
	}
	return parts[0] + "/" + parts[1]
}

// TestArrowsRunOneWay: measured with go list -deps, no two folders of pkg/ depend on each other
// both ways; pkg/nemesis is a leaf beneath pkg/stress and above its injectors (pkg/k8s,
// pkg/sandbox), which import nothing under pkg/stress; pkg/stress/leftover reads the sandbox
// through an interface; within pkg/preflight the checks import the root, never the other way.
func TestArrowsRunOneWay(t *testing.T) {
	pkgs := goList(t, "./pkg/...")
	uses := map[string]map[string]string{} // area -> area it depends on -> one package that does
	for _, p := range pkgs {
		from := area(p.ImportPath)
		for _, d := range p.Deps {
			if to := area(d); to != "" && to != from {
				if uses[from] == nil {
					uses[from] = map[string]string{}
				}
				uses[from][to] = p.ImportPath + " -> " + d
			}
		}
	}
	for from, tos := range uses {
		for to, why := range tos {
			if back, ok := uses[to][from]; ok && from < to {
				t.Errorf("%s and %s depend on each other both ways: %s, and %s", from, to, why, back)
			}
		}
	}
	never := map[string][]string{ // a package (or prefix/...) -> what it must not depend on
		"pkg/k8s":                  {"pkg/stress/"},
		"pkg/sandbox":              {"pkg/stress/"},
		"pkg/nemesis/...":          {"pkg/stress/", "pkg/k8s", "pkg/sandbox", "pkg/redisconn"},
		"pkg/stress/leftover":      {"pkg/sandbox"},
		"pkg/preflight":            {"pkg/preflight/"},
		"pkg/preflight/workload":   {"pkg/preflight/"},
		"pkg/preflight/nfscheck":   {"pkg/preflight/manifests", "pkg/preflight/redischeck"},
		"pkg/preflight/redischeck": {"pkg/preflight/manifests", "pkg/preflight/nfscheck"},
	}
	checked := 0
	for _, p := range pkgs {
		rel := strings.TrimPrefix(p.ImportPath, module)
		for pkg, bad := range never {
			if rel != pkg && !(strings.HasSuffix(pkg, "/...") && strings.HasPrefix(rel+"/", strings.TrimSuffix(pkg, "..."))) {
				continue
			}
			checked++
			for _, d := range p.Deps {
				dr := strings.TrimPrefix(d, module)
				for _, b := range bad {
					if dr == b || strings.HasSuffix(b, "/") && strings.HasPrefix(dr, b) {
						t.Errorf("%s depends on %s: the arrow runs the other way", rel, dr)
					}
				}
			}
		}
	}
	if checked < len(never) {
		t.Errorf("only %d of the %d packages the arrows name were found: a package moved, update the test", checked, len(never))
	}
}

// otherPrograms are the flags of other programs that pkg/ may spell, by the file that does and why.
var otherPrograms = map[string]string{
	"pkg/sandbox/models.go --debug":                 "OpenStudio's CLI, in the analysis JSON the real server writes",
	"pkg/sandbox/models.go --verbose":               "OpenStudio's CLI, in the analysis JSON the real server writes",
	"pkg/redisproc/redisproc.go --sentinel":         "redis-server's",
	"pkg/rollout/mask.go --user":                    "curl's, masked in a gate command",
	"pkg/rollout/mask.go --proxy-user":              "curl's, masked in a gate command",
	"pkg/preflight/nfscheck/rules_volume.go --type": "kubectl patch's, in a fix",
}

var flagRE = regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])(--[a-z][a-z0-9-]*)`)

// TestNoOsctlFlagsInLibraries: a string literal in non-test pkg/ code (comments aside) names at
// most 10 flags, each another program's: errors from pkg name the setting ({Name},
// pkg/setting), and the command line names its flags.
func TestNoOsctlFlagsInLibraries(t *testing.T) {
	root := moduleRoot(t)
	own := osctlFlags()
	var found []string
	err := filepath.WalkDir(filepath.Join(root, "pkg"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range flagRE.FindAllStringSubmatch(s, -1) {
				key := rel + " " + m[1]
				if _, other := otherPrograms[key]; !other {
					what := "a flag of no program listed in otherPrograms"
					if own[m[1]] {
						what = "one of osctl's own flags"
					}
					t.Errorf("%s:%d: %q in a string is %s: name the setting as {Name} (pkg/setting) and let the command line name its flag", rel, fset.Position(lit.Pos()).Line, m[1], what)
				}
				found = append(found, key)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(found)
	if len(found) > 10 {
		t.Errorf("%d flags in pkg/ strings, at most 10:\n%s", len(found), strings.Join(found, "\n"))
	}
	for key := range otherPrograms {
		if !slices.Contains(found, key) {
			t.Errorf("%s is no longer in pkg/: drop it from otherPrograms", key)
		}
	}
}

// osctlFlags returns every flag of every osctl command, as --name.
func osctlFlags() map[string]bool {
	own := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		add := func(f *pflag.Flag) { own["--"+f.Name] = true }
		c.LocalFlags().VisitAll(add)
		c.PersistentFlags().VisitAll(add)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewCmdRoot(cmdutil.New("test")))
	return own
}
