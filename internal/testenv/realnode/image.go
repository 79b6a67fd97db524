//go:build linux

package realnode

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"time"
)

// Image is a one-layer container image that the harness writes in `docker save` format (what
// `ctr images import` reads), with no Docker and no registry; pods run it with
// imagePullPolicy: Never.
type Image struct {
	Name       string // e.g. osctl.test/osctl:1
	Entrypoint []string
	Cmd        []string
	Env        []string
	User       string // e.g. "65532"
	WorkingDir string
	Files      []File
}

// File is one entry of an image's layer: a regular file (from Src on this machine, or Data), a
// directory (Dir), or a symlink (Link).
type File struct {
	Path     string
	Src      string
	Data     []byte
	Mode     int64
	Dir      bool
	Link     string
	UID, GID int
}

// epoch is every entry's and the config's time, so that the same files give the same image.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// WriteFile writes the image to path (a docker-save tarball).
func (im Image) WriteFile(p string) error {
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	if err := im.Write(f); err != nil {
		f.Close()
		return fmt.Errorf("image %s: %w", im.Name, err)
	}
	return f.Close()
}

// Write writes the image as a docker-save tarball: manifest.json, the config, and the layer.
func (im Image) Write(w io.Writer) error {
	var layer bytes.Buffer
	if err := im.writeLayer(&layer); err != nil {
		return err
	}
	lsum := sha256.Sum256(layer.Bytes())
	lhex := hex.EncodeToString(lsum[:])
	env := im.Env
	if env == nil {
		env = []string{"PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"}
	}
	cfg, err := json.Marshal(map[string]any{
		"architecture": "amd64", "os": "linux", "created": epoch,
		"config":  map[string]any{"Entrypoint": im.Entrypoint, "Cmd": im.Cmd, "Env": env, "User": im.User, "WorkingDir": im.WorkingDir},
		"rootfs":  map[string]any{"type": "layers", "diff_ids": []string{"sha256:" + lhex}},
		"history": []map[string]any{{"created": epoch, "created_by": "osctl internal/testenv/realnode"}},
	})
	if err != nil {
		return err
	}
	csum := sha256.Sum256(cfg)
	cname := hex.EncodeToString(csum[:]) + ".json"
	lname := lhex + "/layer.tar"
	man, err := json.Marshal([]map[string]any{{"Config": cname, "RepoTags": []string{im.Name}, "Layers": []string{lname}}})
	if err != nil {
		return err
	}
	tw := tar.NewWriter(w)
	for _, e := range []struct {
		name string
		data []byte
	}{{"manifest.json", man}, {cname, cfg}, {lname, layer.Bytes()}} {
		if err := tw.WriteHeader(&tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.data)), ModTime: epoch, Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		if _, err := tw.Write(e.data); err != nil {
			return err
		}
	}
	return tw.Close()
}

// writeLayer writes the files, each with its parent directories, sorted by path.
func (im Image) writeLayer(w io.Writer) error {
	files := append([]File(nil), im.Files...)
	seen := map[string]bool{}
	for _, f := range im.Files {
		for d := path.Dir(path.Clean("/" + f.Path)); d != "/"; d = path.Dir(d) {
			if !seen[d] {
				seen[d] = true
				files = append(files, File{Path: d, Dir: true, Mode: 0o755})
			}
		}
	}
	sort.SliceStable(files, func(i, j int) bool { return path.Clean("/"+files[i].Path) < path.Clean("/"+files[j].Path) })
	tw := tar.NewWriter(w)
	done := map[string]bool{}
	for _, f := range files {
		name := path.Clean("/" + f.Path)[1:]
		if done[name] {
			continue
		}
		done[name] = true
		if err := writeEntry(tw, name, f); err != nil {
			return err
		}
	}
	return tw.Close()
}

func writeEntry(tw *tar.Writer, name string, f File) error {
	h := &tar.Header{Name: name, Mode: f.Mode, ModTime: epoch, Uid: f.UID, Gid: f.GID, Format: tar.FormatPAX}
	switch {
	case f.Dir:
		h.Typeflag, h.Name = tar.TypeDir, name+"/"
		return tw.WriteHeader(h)
	case f.Link != "":
		h.Typeflag, h.Linkname, h.Mode = tar.TypeSymlink, f.Link, 0o777
		return tw.WriteHeader(h)
	}
	data := f.Data
	if f.Src != "" {
		b, err := os.ReadFile(f.Src)
		if err != nil {
			return err
		}
		data = b
	}
	if h.Mode == 0 {
		h.Mode = 0o644
	}
	h.Typeflag, h.Size = tar.TypeReg, int64(len(data))
	if err := tw.WriteHeader(h); err != nil {
		return err
	}
	_, err := tw.Write(data)
	return err
}
