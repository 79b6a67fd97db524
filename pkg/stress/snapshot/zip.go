package snapshot

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
)

// MaxZip is the largest zip whose entries are read; a larger one is only hashed.
const MaxZip = 256 << 20

// hashZip reads a whole zip file from r: its hash, and its entries when it is a readable zip.
func hashZip(r io.Reader) (File, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxZip+1))
	if err != nil {
		return File{}, err
	}
	if len(b) > MaxZip {
		h := sha256.New()
		h.Write(b)
		n, err := io.Copy(h, r)
		if err != nil {
			return File{}, err
		}
		return File{Size: int64(len(b)) + n, Hash: hex.EncodeToString(h.Sum(nil)), ZipErr: fmt.Sprintf("larger than %d bytes: entries not read", MaxZip)}, nil
	}
	return ZipFile(b), nil
}

// ZipFile describes the bytes of a zip file: size, hash and entries (or why they cannot be read).
func ZipFile(b []byte) File {
	s := sha256.Sum256(b)
	f := File{Size: int64(len(b)), Hash: hex.EncodeToString(s[:])}
	ents, err := ZipEntries(b)
	if err != nil {
		f.ZipErr = err.Error()
	} else {
		f.Entries = ents
	}
	return f
}

// ZipEntries returns the entries of a zip (files only, sorted by name), checking every entry's
// CRC. An unreadable zip or entry is an error.
func ZipEntries(b []byte) ([]Entry, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, fmt.Errorf("not a readable zip: %v", err)
	}
	out := make([]Entry, 0, len(zr.File))
	for _, zf := range zr.File {
		if zf.FileInfo().IsDir() {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return nil, fmt.Errorf("zip entry %s: %v", zf.Name, err)
		}
		h := sha256.New()
		n, err := io.Copy(h, rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("zip entry %s: %v", zf.Name, err)
		}
		out = append(out, Entry{Name: zf.Name, Hash: hex.EncodeToString(h.Sum(nil)), Size: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
