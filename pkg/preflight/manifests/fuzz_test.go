package manifests_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/preflight/manifests"
)

func seed(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yaml")
	files = append(files, examples+"chart-today/rendered.yaml", examples+"chart-migrated/values.yaml")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("---\n--- {a: 1}\n...\n"))
	f.Add([]byte("kind: List\nitems: [{kind: Deployment, metadata: {name: x}, spec: {replicas: 3}}]\n"))
}

func FuzzParseDocuments(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		objs, err := manifests.ParseDocuments(b, "fuzz.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml:") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error must be one line naming the file: %q", err)
			}
			return
		}
		rs, err := manifests.Evaluate(manifests.Input{Objects: objs})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml:") {
				t.Fatalf("error must name the file: %q", err)
			}
			return
		}
		_ = manifests.ApplyIgnores(rs, objs, nil)
	})
}

func FuzzParseValues(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := manifests.ParseValues(b, "values.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "values.yaml") {
				t.Fatalf("error must name the file: %q", err)
			}
			return
		}
		_, _ = manifests.Evaluate(manifests.Input{Values: v})
		_, _ = v.Bool("web_hpa", "distributedLocking", "enabled")
	})
}
