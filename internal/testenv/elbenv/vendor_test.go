package elbenv

import (
	"bufio"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVendoredUnmodified: every file of third_party/elb-openapi-352a1f4 hashes to the git blob id
// its README gives (upstream's, at commit 352a1f4), and nothing else is in app/.
func TestVendoredUnmodified(t *testing.T) {
	dir := filepath.Join("..", "..", "..", filepath.Dir(AppDir))
	f, err := os.Open(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) == 4 && len(strings.TrimSpace(cells[2])) == 40 {
			want[strings.TrimSpace(cells[1])] = strings.TrimSpace(cells[2])
		}
	}
	if len(want) != 9 {
		t.Fatalf("the README lists %d files with blob ids, want 9", len(want))
	}
	for name, id := range want {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		h := sha1.New()
		fmt.Fprintf(h, "blob %d\x00", len(b))
		h.Write(b)
		if got := hex.EncodeToString(h.Sum(nil)); got != id {
			t.Errorf("%s hashes to %s, upstream's blob is %s: the vendored file was changed", name, got, id)
		}
	}
	ents, err := os.ReadDir(filepath.Join(dir, "app"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if _, ok := want["app/"+e.Name()]; !ok {
			t.Errorf("app/%s is not upstream's (a __pycache__ left by a run without PYTHONDONTWRITEBYTECODE?)", e.Name())
		}
	}
}
