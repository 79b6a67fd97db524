// Package snapshot reads the state a stress run left on the shared volume: the paths, sizes and
// sha256 of the files under the run's own directories, from a local directory or through one
// exec in a pod that mounts the volume.
package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// File is one regular file of the state.
type File struct {
	Size int64  `json:"size"`
	Hash string `json:"sha256"`
	Err  string `json:"error,omitempty"` // the file was listed but could not be read
	// Entries are a .zip file's entries, when it could be read as a zip; ZipErr says why not.
	// A server may rewrite a stored zip (same entries, other bytes), so a zip is also judged by
	// its entries.
	Entries []Entry `json:"entries,omitempty"`
	ZipErr  string  `json:"zip_error,omitempty"`
}

// Entry is one entry of a zip file: its name and the sha256 of its uncompressed bytes.
type Entry struct {
	Name string `json:"name"`
	Hash string `json:"sha256"`
	Size int64  `json:"size"`
}

// State is the run's part of the volume: files by slash-separated path relative to the volume
// root, and the directories that exist among those asked for.
type State struct {
	Files map[string]File `json:"files"`
	Dirs  map[string]bool `json:"dirs"`
}

// NewState returns an empty state.
func NewState() *State { return &State{Files: map[string]File{}, Dirs: map[string]bool{}} }

// Reader reads the files under the given directories (relative to the volume root). Directories
// that do not exist are left out of Dirs.
type Reader interface {
	Read(ctx context.Context, dirs []string) (*State, error)
}

// Local reads a directory on this machine (the sandbox's state dir, or the volume mounted here).
type Local struct {
	Root string
	// Retries is how many times an open or read failing with ESTALE is retried. The default is 3.
	Retries int
}

// Read implements Reader: it opens and hashes every file (open revalidates an NFS client's
// cache, where stat alone may serve stale attributes).
func (l Local) Read(ctx context.Context, dirs []string) (*State, error) {
	st := NewState()
	if err := CheckDirs(dirs); err != nil {
		return st, err
	}
	for _, d := range dirs {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		root := filepath.Join(l.Root, filepath.FromSlash(d))
		fi, err := os.Stat(root)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return st, err
		}
		if !fi.IsDir() {
			continue
		}
		st.Dirs[d] = true
		err = filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if de.IsDir() || !de.Type().IsRegular() {
				return nil
			}
			rel, _ := filepath.Rel(l.Root, p)
			st.Files[filepath.ToSlash(rel)] = l.hash(p)
			return nil
		})
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

func (l Local) hash(p string) File {
	tries := l.Retries
	if tries <= 0 {
		tries = 3
	}
	isZip := strings.HasSuffix(p, ".zip")
	var last error
	for i := 0; i <= tries; i++ {
		f, err := os.Open(p)
		if err == nil {
			var f2 File
			if isZip {
				f2, err = hashZip(f)
			} else {
				h := sha256.New()
				var n int64
				n, err = io.Copy(h, f)
				f2 = File{Size: n, Hash: hex.EncodeToString(h.Sum(nil))}
			}
			f.Close()
			if err == nil {
				return f2
			}
			last = err
		} else {
			last = err
		}
		if !errors.Is(last, syscall.ESTALE) {
			break
		}
		time.Sleep(time.Duration(i+1) * 20 * time.Millisecond)
	}
	return File{Size: -1, Err: last.Error()}
}

// CheckDirs refuses a directory that is not a relative path inside the volume root (absolute, with a
// ".." element, a backslash or a control character such as a line break): the ids that name the run's directories come from a history or a server,
// and nothing outside the root is ever opened on their word.
func CheckDirs(dirs []string) error {
	for _, d := range dirs {
		if d == "" || path.IsAbs(d) || filepath.IsAbs(d) || strings.ContainsFunc(d, func(r rune) bool { return r == '\\' || r < 0x20 }) || slices.Contains(strings.Split(d, "/"), "..") {
			return fmt.Errorf("directory %q is not a path inside the state directory: refused", d)
		}
	}
	return nil
}

// Fingerprint lists path, size and modification time of every file under dirs (stat only): a
// cheap way to tell whether files are still changing while the target settles.
func (l Local) Fingerprint(ctx context.Context, dirs []string) (string, error) {
	h := sha256.New()
	for _, d := range dirs {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		root := filepath.Join(l.Root, filepath.FromSlash(d))
		_ = filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
			if err != nil || de.IsDir() {
				return nil
			}
			fi, err := de.Info()
			if err != nil {
				return nil
			}
			_, _ = io.WriteString(h, p+"\x00"+strconv.FormatInt(fi.Size(), 10)+"\x00"+strconv.FormatInt(fi.ModTime().UnixNano(), 10)+"\n")
			return nil
		})
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Paths returns the state's file paths in order.
func (s *State) Paths() []string {
	return slices.Sorted(maps.Keys(s.Files))
}

// Under returns the paths of files under dir (slash-separated, relative), in order.
func (s *State) Under(dir string) []string {
	prefix := strings.TrimSuffix(dir, "/") + "/"
	var out []string
	for k := range s.Files {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Digest is a sha256 over the state's paths, sizes and hashes: equal for equal states.
func (s *State) Digest() string {
	h := sha256.New()
	for _, p := range s.Paths() {
		f := s.Files[p]
		_, _ = io.WriteString(h, p+"\x00"+strconv.FormatInt(f.Size, 10)+"\x00"+f.Hash+"\x00"+f.Err+"\n")
	}
	return hex.EncodeToString(h.Sum(nil))
}
