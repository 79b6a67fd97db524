package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/sys/unix"
)

// errExists says a record with that id already exists.
var errExists = errors.New("record exists")

// errNoRecord says there is no record with that id.
var errNoRecord = errors.New("no record")

// store keeps records (projects, analyses, jobs, data points, result files) as JSON files under
// <state>/db/<kind>/, each written atomically, so that every replica reads every record. It is
// outside server/, which the stress detector judges. Creates are atomic (link(2)); updates
// take an flock on a hidden sidecar file, so that two processes updating one record both
// land, as two $set operations on one MongoDB document do.
type store struct{ dir string }

func (s store) path(kind string, id ...string) string {
	return filepath.Join(append([]string{s.dir, kind}, id...)...) + ".json"
}

// create writes a new record and fails with errExists when the id is taken (link(2) is atomic).
func (s store) create(kind string, v any, id ...string) error {
	p := s.path(kind, id...)
	tmp, err := s.writeTemp(filepath.Dir(p), v)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, p); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return errExists
		}
		return fmt.Errorf("creating record %s: %v", p, err)
	}
	return nil
}

// put replaces a record atomically (temp file + rename).
func (s store) put(kind string, v any, id ...string) error {
	p := s.path(kind, id...)
	tmp, err := s.writeTemp(filepath.Dir(p), v)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("writing record %s: %v", p, err)
	}
	return nil
}

// get reads a record into v; errNoRecord when it does not exist.
func (s store) get(kind string, v any, id ...string) error {
	b, err := os.ReadFile(s.path(kind, id...))
	if errors.Is(err, fs.ErrNotExist) {
		return errNoRecord
	}
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// list returns the ids of the records of kind under the given parent ids, sorted.
func (s store) list(kind string, parent ...string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(append([]string{s.dir, kind}, parent...)...))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, ".json") && !strings.HasPrefix(n, ".") {
			ids = append(ids, strings.TrimSuffix(n, ".json"))
		}
	}
	sort.Strings(ids)
	return ids, nil
}

func (s store) writeTemp(dir string, v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, TempPrefix+"*")
	if err != nil {
		return "", err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// update applies fn to a record under an exclusive flock shared by every process, and writes
// the result atomically; errNoRecord when it does not exist. It returns the record as written.
func (s store) update(kind string, fn func(rec record) error, id ...string) (record, error) {
	p := s.path(kind, id...)
	unlock, err := flockPath(filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".lock"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoRecord
	}
	if err != nil {
		return nil, err
	}
	defer unlock()
	var rec record
	if err := s.get(kind, &rec, id...); err != nil {
		return nil, err
	}
	if err := fn(rec); err != nil {
		return nil, err
	}
	return rec, s.put(kind, rec, id...)
}

// remove deletes a record (and its update lock); a missing one is not an error.
func (s store) remove(kind string, id ...string) error {
	p := s.path(kind, id...)
	_ = os.Remove(filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".lock"))
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// removeAll deletes every record of kind under the given parent ids.
func (s store) removeAll(kind string, parent ...string) error {
	return os.RemoveAll(filepath.Join(append([]string{s.dir, kind}, parent...)...))
}

// flockPath takes an exclusive flock on path (created if needed) and returns its release.
func flockPath(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %v", path, err)
	}
	return func() { _ = f.Close() }, nil
}
