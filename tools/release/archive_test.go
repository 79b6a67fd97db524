package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"testing"
	"time"
)

// The same files give the same archive bytes, whatever order they come in; members are sorted,
// owned by 0 with no names, dated at the commit time, and gzip's header has no name or time.
func TestArchiveIsReproducible(t *testing.T) {
	at := time.Unix(1765000000, 0)
	files := []entry{{Name: "osctl", Mode: 0o755, Data: []byte("binary")}, {Name: "README.md", Mode: 0o644, Data: []byte("# osctl\n")}}
	a, err := tarGz(files, at)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tarGz([]entry{files[1], files[0]}, at)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two archives of the same files differ")
	}
	zr, err := gzip.NewReader(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if zr.Name != "" || !zr.ModTime.IsZero() {
		t.Errorf("gzip header has name %q, time %v: want neither", zr.Name, zr.ModTime)
	}
	var names []string
	walkTar(t, zr, func(h *tar.Header, _ io.Reader) {
		names = append(names, h.Name)
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" || !h.ModTime.Equal(at) {
			t.Errorf("%s: uid %d gid %d uname %q gname %q mtime %v: want 0, 0, none, none, %v", h.Name, h.Uid, h.Gid, h.Uname, h.Gname, h.ModTime, at)
		}
	})
	if len(names) != 2 || names[0] != "README.md" || names[1] != "osctl" {
		t.Errorf("members %v, want [README.md osctl]", names)
	}
}

// Two builds of one platform's image from the same binary and time have one digest; another
// time gives another digest (the time is in the layers and the config).
func TestImageIsReproducible(t *testing.T) {
	spec := imageSpec{Version: "v1.2.3", Created: time.Unix(1765000000, 0), CABundle: []byte("ca")}
	p := platformBin{Data: []byte("osctl")}
	p.Platform.OS, p.Platform.Architecture = "linux", "arm64"
	digest := func(s imageSpec) string {
		idx, _, err := imageIndex(s, []platformBin{p})
		if err != nil {
			t.Fatal(err)
		}
		d, err := idx.Digest()
		if err != nil {
			t.Fatal(err)
		}
		return d.String()
	}
	first, second := digest(spec), digest(spec)
	if first != second {
		t.Fatalf("two builds: %s and %s", first, second)
	}
	spec.Created = spec.Created.Add(time.Second)
	if digest(spec) == first {
		t.Fatal("an image of another time has the same digest")
	}
}
