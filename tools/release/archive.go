package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// entry is one regular file of a release archive or image layer.
type entry struct {
	Name string // path inside the archive, no leading slash
	Mode int64
	Data []byte
	UID  int // owner (0 unless a layer needs another, as the nonroot home)
	Dir  bool
}

// fileEntry reads path from disk as the archive member name, executable or not.
func fileEntry(name, path string) (entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return entry{}, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return entry{}, err
	}
	mode := int64(0o644)
	if info.Mode()&0o111 != 0 {
		mode = 0o755
	}
	return entry{Name: name, Mode: mode, Data: data}, nil
}

// writeTar writes entries sorted by name, each with mtime at, owner uid/gid 0 (or e.UID), no user
// or group names and no access or change times: the same entries give the same bytes.
func writeTar(w io.Writer, entries []entry, at time.Time) error {
	sorted := append([]entry(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	tw := tar.NewWriter(w)
	for _, e := range sorted {
		h := &tar.Header{Name: e.Name, Mode: e.Mode, ModTime: at.UTC(), Uid: e.UID, Gid: e.UID,
			Typeflag: tar.TypeReg, Size: int64(len(e.Data)), Format: tar.FormatUSTAR}
		if e.Dir {
			h.Typeflag, h.Size, h.Name = tar.TypeDir, 0, filepath.Clean(e.Name)+"/"
		}
		if err := tw.WriteHeader(h); err != nil {
			return fmt.Errorf("tar %s: %w", e.Name, err)
		}
		if _, err := tw.Write(e.Data); err != nil {
			return fmt.Errorf("tar %s: %w", e.Name, err)
		}
	}
	return tw.Close()
}

// tarGz is writeTar compressed by gzip with no name and no timestamp in its header.
func tarGz(entries []entry, at time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if err := writeTar(zw, entries, at); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
