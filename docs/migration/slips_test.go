package migration_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
)

// What the chart does not have, and a command that fails without tags. The chart's web is a
// Deployment (its pods are web-<hash>-<id>, never web-0) behind the Service web on port 80.
var (
	webPodZero = regexp.MustCompile(`\bweb-0\b`)
	web8080    = regexp.MustCompile(`\bweb(\.[A-Za-z0-9$_{}-]+)*:8080\b`)
	describe   = regexp.MustCompile(`git describe --tags[^)\n]*`)
)

// slips returns what line says that no document may: a web-0 pod, the web Service on port
// 8080, or a `git describe --tags` without --always (it fails in a repository with no tag, and
// the image reference built from it then ends in ":").
func slips(line string) []string {
	var out []string
	if m := webPodZero.FindString(line); m != "" {
		out = append(out, "names a pod web-0, but the chart's web is a Deployment: select a pod by its labels (-l app=web)")
	}
	if m := web8080.FindString(line); m != "" {
		out = append(out, fmt.Sprintf("names %q, but the chart's web Service listens on port 80", m))
	}
	for _, m := range describe.FindAllString(line, -1) {
		if !strings.Contains(m, "--always") {
			out = append(out, "runs a bare `git describe --tags`, which fails without a tag: use osctl version -o json")
		}
	}
	return out
}

// TestSlipsMatcher checks the matcher on lines that must and must not be reported.
func TestSlipsMatcher(t *testing.T) {
	bad := []string{
		"--state-pod web-0", "kubectl exec web-0 --", "http://web:8080/", "--target http://web.openstudio.svc:8080",
		"http://web.$NS.svc.cluster.local:8080", "http://web.${NS}.svc:8080",
		"IMAGE=reg/osctl:$(git describe --tags)", "v=`git describe --tags`",
	}
	good := []string{
		"--state-pod \"$(kubectl get pod -l app=web -o name)\"", "http://web/", "http://web.openstudio.svc",
		"kubectl port-forward svc/web 8080:80", "http://127.0.0.1:8080", "web-background", "web-0a1b",
		"VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)",
	}
	for _, l := range bad {
		if len(slips(l)) == 0 {
			t.Errorf("%q: not reported", l)
		}
	}
	for _, l := range good {
		if s := slips(l); len(s) != 0 {
			t.Errorf("%q: reported %v", l, s)
		}
	}
}

// TestNoSlips fails when a document, an example or a command's help names a web-0 pod, the web
// Service on port 8080, or a bare `git describe --tags`: what the chart does not have, and a
// command that fails.
func TestNoSlips(t *testing.T) {
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			switch rel {
			case ".git", "third_party", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if !slipsChecked(rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, s := range slips(line) {
				problems = append(problems, fmt.Sprintf("%s:%d: %s", rel, i+1, s))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// slipsChecked says whether a file is one users read: a Markdown document, an example, a
// Dockerfile, the Makefile, or the Go source of a command (its help texts), not a test.
func slipsChecked(rel string) bool {
	base := filepath.Base(rel)
	switch {
	case strings.HasSuffix(rel, ".md"), base == "Dockerfile", base == "Makefile":
		return true
	case strings.HasPrefix(rel, "examples"+string(filepath.Separator)), strings.HasPrefix(rel, "contrib"+string(filepath.Separator)) && !strings.HasSuffix(rel, "_test.go"):
		return true
	case strings.HasPrefix(rel, filepath.Join("internal", "cli")+string(filepath.Separator)) && strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go"):
		return true
	}
	return false
}
