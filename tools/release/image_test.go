package main

import (
	"archive/tar"
	"io"
	"log"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// testImage: make image pushes to a registry on loopback (go-containerregistry's, in this
// process) with no Docker; the index holds linux/amd64 and linux/arm64 run as 65532, and the
// amd64 image's /usr/local/bin/osctl prints the version of make build's bin/osctl.
func testImage(t *testing.T, c *checkout) {
	reg := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	defer reg.Close()
	ref := strings.TrimPrefix(reg.URL, "http://") + "/osctl:test"
	c.make("image", "IMAGE="+ref)

	r, err := name.ParseReference(ref)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := remote.Index(r)
	if err != nil {
		t.Fatal(err)
	}
	m, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	var plats []string
	var amd64 v1.Image
	for _, d := range m.Manifests {
		plats = append(plats, d.Platform.String())
		img, err := idx.Image(d.Digest)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := img.ConfigFile()
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Config.User != "65532" || !slices.Equal(cfg.Config.Entrypoint, []string{"osctl"}) ||
			cfg.OS+"/"+cfg.Architecture != d.Platform.String() {
			t.Errorf("%s: user %q, entrypoint %v, config platform %s/%s: want 65532, [osctl], the index's",
				d.Platform, cfg.Config.User, cfg.Config.Entrypoint, cfg.OS, cfg.Architecture)
		}
		if d.Platform.String() == "linux/amd64" {
			amd64 = img
		}
	}
	slices.Sort(plats)
	if !slices.Equal(plats, []string{"linux/amd64", "linux/arm64"}) || amd64 == nil {
		t.Fatalf("pushed index has %v, want linux/amd64 and linux/arm64", plats)
	}
	bin, files := extractImage(t, amd64)
	for _, shell := range []string{"bin/sh", "bin/bash", "usr/bin/sh"} {
		if slices.Contains(files, shell) {
			t.Errorf("the image has a shell: /%s", shell)
		}
	}
	for _, f := range []string{"etc/ssl/certs/ca-certificates.crt", "etc/passwd", "etc/group"} {
		if !slices.Contains(files, f) {
			t.Errorf("the image lacks /%s (files: %v)", f, files)
		}
	}
	c.make("build")
	want := osctlVersion(t, nil, c.path("bin", "osctl"))
	if got := osctlVersion(t, nil, bin); got != want {
		t.Errorf("the image's osctl version = %q, make build's bin/osctl = %q", got, want)
	}
}

// extractImage writes the image's /usr/local/bin/osctl into a temporary file and lists its files.
func extractImage(t *testing.T, img v1.Image) (string, []string) {
	rc := mutate.Extract(img)
	defer rc.Close()
	dest := filepath.Join(t.TempDir(), "osctl")
	var files []string
	walkTar(t, rc, func(h *tar.Header, body io.Reader) {
		files = append(files, h.Name)
		if h.Name == binPath {
			writeMember(t, body, dest, 0o755)
		}
	})
	if !slices.Contains(files, binPath) {
		t.Fatalf("the image has no /%s: %v", binPath, files)
	}
	return dest, files
}
