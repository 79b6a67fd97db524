package cleanupenv

import (
	"os"
	"path/filepath"
	"testing"
)

// Mkdirs makes each path (a file holding "x", its directories with it) under root: a volume
// holding those directories for a cleanup plan to remove.
func Mkdirs(t testing.TB, root string, paths ...string) {
	t.Helper()
	for _, d := range paths {
		p := filepath.Join(root, filepath.FromSlash(d))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Exists says whether p is there.
func Exists(p string) bool { _, err := os.Stat(p); return err == nil }
