package nfscheck_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/preflight/nfscheck"
)

func FuzzParseMountinfo(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err == nil {
			f.Add(string(b))
		}
	}
	f.Add("1 2 3:4 / /a\\040b rw - nfs s noac\n")
	f.Add("1 2 3:4 / / rw a:1 b:2 - - - -\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		ms, err := nfscheck.ParseMountinfo(strings.NewReader(text), "fuzz")
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error: %q", err)
			}
			return
		}
		for _, m := range ms {
			if m.Line < 1 {
				t.Fatalf("line %d", m.Line)
			}
			o := nfscheck.MountOptions(m)
			_ = o.Signature()
			_ = nfscheck.GradeMount(m, "x", nfscheck.GradeOptions{AppLocksFiles: true})
		}
		_, _ = nfscheck.FindMount(ms, "/mnt/openstudio")
	})
}
