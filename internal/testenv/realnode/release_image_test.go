//go:build linux

package realnode

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

// TestReleaseImageOfTheTestBinary: the image the nodes import is the release tool's, for the
// binary under test: a docker-save tarball named OsctlImage whose config runs osctl as 65532, and
// whose layers hold exactly that binary at /usr/local/bin/osctl. The second call is the cache's.
func TestReleaseImageOfTheTestBinary(t *testing.T) {
	bin := testenv.OsctlBinary(t)
	t.Setenv("OSCTL_CACHE", t.TempDir())
	t0 := time.Now()
	p, err := ReleaseImage(bin, OsctlImage)
	if err != nil {
		t.Fatal(err)
	}
	cold := time.Since(t0)
	t1 := time.Now()
	p2, err := ReleaseImage(bin, OsctlImage)
	if err != nil || p2 != p {
		t.Fatalf("second build: %s %v, want the cached %s", p2, err, p)
	}
	t.Logf("release image %s: cold %s (release tool build + image), warm %s", p, cold.Round(time.Millisecond), time.Since(t1).Round(time.Millisecond))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	outer := readTar(t, b)
	var man []struct {
		Config           string
		RepoTags, Layers []string
	}
	if err := json.Unmarshal(outer["manifest.json"].data, &man); err != nil || len(man) != 1 || len(man[0].RepoTags) != 1 || man[0].RepoTags[0] != OsctlImage {
		t.Fatalf("manifest.json: %v %s", err, outer["manifest.json"].data)
	}
	var cfg struct {
		Config struct {
			Entrypoint []string
			User       string
			Labels     map[string]string
		} `json:"config"`
	}
	if err := json.Unmarshal(outer[man[0].Config].data, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Config.User != "65532" || len(cfg.Config.Entrypoint) != 1 || cfg.Config.Entrypoint[0] != "osctl" || cfg.Config.Labels["org.opencontainers.image.title"] != "osctl" {
		t.Fatalf("config = %+v", cfg.Config)
	}
	want, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range man[0].Layers {
		files := readTar(t, gunzipMaybe(t, outer[l].data))
		if e, ok := files["usr/local/bin/osctl"]; ok {
			found = bytes.Equal(e.data, want) && e.h.Mode&0o111 != 0
		}
	}
	if !found {
		t.Fatalf("no layer holds the binary under test at /usr/local/bin/osctl, executable")
	}
}

// gunzipMaybe is b uncompressed when it is gzip (the release tool's layers are).
func gunzipMaybe(t *testing.T, b []byte) []byte {
	t.Helper()
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
