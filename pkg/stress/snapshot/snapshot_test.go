package snapshot

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLocalRead(t *testing.T) {
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "server/analyses/a1/scripts"), 0o755))
	must(os.WriteFile(filepath.Join(root, "server/analyses/a1/scripts/x.rb"), []byte("abc"), 0o644))
	must(os.MkdirAll(filepath.Join(root, "server/analyses/other"), 0o755))
	must(os.WriteFile(filepath.Join(root, "server/analyses/other/y"), []byte("zz"), 0o644))
	st, err := Local{Root: root}.Read(context.Background(), []string{"server/analyses/a1", "server/analyses/missing"})
	must(err)
	f, ok := st.Files["server/analyses/a1/scripts/x.rb"]
	if !ok || f.Size != 3 || f.Hash != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("%+v", st)
	}
	if len(st.Files) != 1 || !st.Dirs["server/analyses/a1"] || st.Dirs["server/analyses/missing"] {
		t.Fatalf("only the asked directories: %+v", st)
	}
	fp1, _ := Local{Root: root}.Fingerprint(context.Background(), []string{"server/analyses/a1"})
	must(os.WriteFile(filepath.Join(root, "server/analyses/a1/scripts/x.rb"), []byte("abcd"), 0o644))
	fp2, _ := Local{Root: root}.Fingerprint(context.Background(), []string{"server/analyses/a1"})
	if fp1 == fp2 {
		t.Fatal("fingerprint did not change")
	}
}

func TestParsePodListing(t *testing.T) {
	st, err := ParsePodListing(strings.NewReader("D server/analyses/a\nF 3 abc server/analyses/a/x y.rb\nE server/analyses/a/gone\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !st.Dirs["server/analyses/a"] || st.Files["server/analyses/a/x y.rb"].Size != 3 || st.Files["server/analyses/a/gone"].Err == "" {
		t.Fatalf("%+v", st)
	}
	if _, err := ParsePodListing(strings.NewReader("Q what\n")); err == nil {
		t.Fatal("no error on a bad line")
	}
}

// TestPodScriptLocally runs the script the pod exec runs, with a local sh, find, wc and
// sha256sum, and checks it reads the same state as Local.
func TestPodScriptLocally(t *testing.T) {
	if _, err := exec.LookPath("sha256sum"); err != nil {
		t.Skip("no sha256sum")
	}
	root := t.TempDir()
	z := testZip(t)
	files := map[string]string{"server/analyses/a/x y.rb": "abc", "server/analyses/a/sub/z": "", "server/assets/data_points/r/files/original/f.json": "{}",
		"server/assets/analyses/a/original/ok.zip": string(z), "server/assets/analyses/a/original/torn.zip": string(z[:len(z)/2])}
	for p, b := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dirs := []string{"server/analyses/a", "server/assets/data_points/r", "server/analyses/missing", "server/assets/analyses/a"}
	cmd := exec.Command("sh", "-c", podScript, "osctl-snapshot", root)
	// The end line ends the list even though more input follows (exec without stdin EOF).
	cmd.Stdin = strings.NewReader(strings.Join(dirs, "\n") + "\n" + endOfDirs + "\nserver/assets\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParsePodListing(strings.NewReader(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Local{Root: root}.Read(context.Background(), dirs)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pod script read\n%+v\nLocal read\n%+v", got, want)
	}
	ok, torn := want.Files["server/assets/analyses/a/original/ok.zip"], want.Files["server/assets/analyses/a/original/torn.zip"]
	if len(ok.Entries) != 2 || ok.Entries[0].Name != "a.txt" || ok.ZipErr != "" || ok.Entries[1].Hash != Sum([]byte("bbb")) {
		t.Fatalf("entries of a readable zip: %+v", ok)
	}
	if torn.ZipErr == "" || torn.Entries != nil || torn.Err != "" {
		t.Fatalf("a torn zip reads as a file whose entries cannot be read: %+v", torn)
	}
}

// testZip is a zip of b.txt then a.txt (entries out of name order).
func testZip(t *testing.T) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range [][2]string{{"b.txt", "bbb"}, {"a.txt", "aa"}} {
		w, err := zw.Create(e[0])
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(e[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func Sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
