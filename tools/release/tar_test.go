package main

import (
	"archive/tar"
	"io"
	"os"
	"testing"
)

// walkTar calls each for every member of the tar stream r, in order, and fails the test on a
// read error.
func walkTar(t *testing.T, r io.Reader, each func(h *tar.Header, body io.Reader)) {
	t.Helper()
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		each(h, tr)
	}
}

// writeMember writes a member's body to path with mode.
func writeMember(t *testing.T, body io.Reader, path string, mode os.FileMode) {
	t.Helper()
	data, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, mode); err != nil {
		t.Fatal(err)
	}
}
