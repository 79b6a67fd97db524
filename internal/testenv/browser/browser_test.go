package browser

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPageSeesErrorsAndRequests: the harness reports a console error, an uncaught exception and a
// resource that failed to load (from loopback), and every request the page made; a quiet page
// reports nothing but itself.
func TestPageSeesErrorsAndRequests(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.html")
	quiet := filepath.Join(dir, "quiet.html")
	if err := os.WriteFile(bad, []byte(`<!doctype html><title>bad</title><img src="http://127.0.0.1:1/x.png">
<script>console.error("boom"); undefinedFunction();</script><p id="p">3</p>`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(quiet, []byte(`<!doctype html><title>quiet</title><p id="p">3</p>`), 0o644); err != nil {
		t.Fatal(err)
	}
	p := Open(t, bad)
	errs := strings.Join(p.Errors(), "\n")
	for _, want := range []string{"boom", "undefinedFunction", "127.0.0.1:1"} {
		if !strings.Contains(errs, want) {
			t.Errorf("errors lack %q:\n%s", want, errs)
		}
	}
	if !slices.Contains(p.Requests(), "http://127.0.0.1:1/x.png") {
		t.Errorf("requests lack the image: %v", p.Requests())
	}
	q := Open(t, quiet)
	if e := q.Errors(); len(e) != 0 {
		t.Errorf("a quiet page has errors: %v", e)
	}
	if r := q.Requests(); len(r) != 1 || !strings.HasSuffix(r[0], "/quiet.html") {
		t.Errorf("a quiet page requested %v", r)
	}
	if n := Eval[string](q, `document.getElementById('p').textContent`); n != "3" {
		t.Errorf("evaluated %q", n)
	}
}
