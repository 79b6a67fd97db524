//go:build linux

package realnode

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"testing"
)

// TestImageIsADockerSaveTarball: the manifest names the config and the layer, the config's
// diff_id is the layer's digest, and the layer holds the files with their parent directories,
// modes, owners and links.
func TestImageIsADockerSaveTarball(t *testing.T) {
	im := Image{Name: "osctl.test/x:1", Entrypoint: []string{"/usr/local/bin/x"}, User: "65532", Files: []File{
		{Path: "/usr/local/bin/x", Data: []byte("binary"), Mode: 0o755},
		{Path: "/home/nonroot", Dir: true, Mode: 0o700, UID: 65532, GID: 65532},
		{Path: "/bin/sh", Link: "busybox"},
	}}
	var buf bytes.Buffer
	if err := im.Write(&buf); err != nil {
		t.Fatal(err)
	}
	outer := readTar(t, buf.Bytes())
	var man []struct {
		Config           string
		RepoTags, Layers []string
	}
	if err := json.Unmarshal(outer["manifest.json"].data, &man); err != nil || len(man) != 1 {
		t.Fatalf("manifest.json: %v %s", err, outer["manifest.json"].data)
	}
	if man[0].RepoTags[0] != im.Name || len(man[0].Layers) != 1 {
		t.Fatalf("manifest = %+v", man[0])
	}
	var cfg struct {
		Config struct {
			Entrypoint []string
			User       string
		} `json:"config"`
		RootFS struct {
			DiffIDs []string `json:"diff_ids"`
		} `json:"rootfs"`
	}
	cb := outer[man[0].Config].data
	if err := json.Unmarshal(cb, &cfg); err != nil {
		t.Fatal(err)
	}
	csum := sha256.Sum256(cb)
	if man[0].Config != hex.EncodeToString(csum[:])+".json" {
		t.Errorf("config file %s is not named by its digest", man[0].Config)
	}
	layer := outer[man[0].Layers[0]].data
	lsum := sha256.Sum256(layer)
	if cfg.RootFS.DiffIDs[0] != "sha256:"+hex.EncodeToString(lsum[:]) || cfg.Config.User != "65532" || cfg.Config.Entrypoint[0] != "/usr/local/bin/x" {
		t.Fatalf("config = %+v, layer digest %x", cfg, lsum)
	}
	files := readTar(t, layer)
	for name, want := range map[string]int64{"usr/": 0o755, "usr/local/": 0o755, "usr/local/bin/": 0o755, "home/nonroot/": 0o700} {
		if e, ok := files[name]; !ok || e.h.Mode != want {
			t.Errorf("layer entry %s: %+v", name, e.h)
		}
	}
	if e := files["usr/local/bin/x"]; string(e.data) != "binary" || e.h.Mode != 0o755 {
		t.Errorf("x = %q mode %o", e.data, e.h.Mode)
	}
	if e := files["home/nonroot/"]; e.h.Uid != 65532 {
		t.Errorf("home/nonroot owner %d", e.h.Uid)
	}
	if e := files["bin/sh"]; e.h.Typeflag != tar.TypeSymlink || e.h.Linkname != "busybox" {
		t.Errorf("bin/sh = %+v", e.h)
	}
}

type entry struct {
	h    *tar.Header
	data []byte
}

func readTar(t *testing.T, b []byte) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	tr := tar.NewReader(bytes.NewReader(b))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		out[h.Name] = entry{h, data}
	}
}

// TestLddLines: the library paths and the loader are read from ldd's output.
func TestLddLines(t *testing.T) {
	out := "\tlinux-vdso.so.1 (0x00007ffd)\n\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x00007fed0d707000)\n\t/lib64/ld-linux-x86-64.so.2 (0x00007fed0da71000)\n"
	var got []string
	for _, m := range lddLine.FindAllStringSubmatch(out, -1) {
		got = append(got, m[1])
	}
	if len(got) != 2 || got[0] != "/lib/x86_64-linux-gnu/libm.so.6" || got[1] != "/lib64/ld-linux-x86-64.so.2" {
		t.Fatalf("ldd paths = %q", got)
	}
}
