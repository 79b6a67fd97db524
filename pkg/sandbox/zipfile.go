package sandbox

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"
)

// initAttempts is run_initialization's extract_max_count: the extraction is retried at once
// after an error, and the third error raises.
const initAttempts = 3

// errNoZip says an analysis has no seed zip (its record has no seed_zip_file_name).
var errNoZip = errors.New("the analysis has no seed zip (seed_zip.path is nil)")

// byName returns the entries sorted by name, as rubyzip iterates them with
// Zip.sort_entries = true (Ruby compares strings bytewise, as Go does).
func byName(files []*zip.File) []*zip.File {
	out := append([]*zip.File(nil), files...)
	sort.SliceStable(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// inNameOrder reports whether a zip's entries are already in name order: such a zip is never
// rewritten.
func inNameOrder(files []*zip.File) bool {
	return sort.SliceIsSorted(files, func(a, b int) bool { return files[a].Name < files[b].Name })
}

// extractEntries unpacks entries into dir in paced pieces. With a reopener it is the real
// extract_archive: rubyzip opens the zip by its path again for every entry (so an upload that
// replaced the file since the central directory was read is read at the old offsets), a file
// that already exists is skipped, and entry checksums are not verified (rubyzip 2.3 does not
// check them: a torn stored entry is written as it reads). Without one (the fixed app) every
// file is written and a checksum mismatch is an error.
func extractEntries(ctx context.Context, p pacer, files []*zip.File, dir string, ra *reopener) error {
	rubyzip := ra != nil
	for _, f := range files {
		name, err := entryName(f.Name)
		if err != nil {
			return err
		}
		dest := filepath.Join(dir, name)
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(dest, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return err
		}
		if rubyzip && exists(dest) {
			continue
		}
		if rubyzip {
			if err := ra.reopen(); err != nil {
				return err
			}
		}
		if err := extractEntry(ctx, p, f, dest); err != nil && !(rubyzip && errors.Is(err, zip.ErrChecksum)) {
			return err
		}
	}
	return nil
}

// extractEntry writes one zip entry to dest in paced pieces; a corrupt entry leaves what was
// written so far (as rubyzip does) and returns the error.
func extractEntry(ctx context.Context, p pacer, f *zip.File, dest string) error {
	rc, err := f.Open()
	if err != nil {
		return fmt.Errorf("zip entry %s: %w", f.Name, err)
	}
	defer rc.Close()
	out, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	p.pause()
	if err := p.copy(ctx, out, rc); err != nil {
		out.Close()
		return fmt.Errorf("zip entry %s: %w", f.Name, err)
	}
	return out.Close()
}

// entryName checks a zip entry name stays inside the extraction directory.
func entryName(name string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(name))
	if !filepath.IsLocal(clean) {
		return "", fmt.Errorf("zip entry %q escapes the analysis directory", name)
	}
	return clean, nil
}

// writeSorted writes a zip of the given entries, in that order, copying each entry's raw
// (compressed) bytes from where the reader found it: the same entries with the same bytes per
// entry, in a different zip. comment is the archive comment.
func writeSorted(w io.Writer, sorted []*zip.File, comment string) error {
	zw := zip.NewWriter(w)
	for _, f := range sorted {
		if err := zw.Copy(f); err != nil {
			return fmt.Errorf("copying zip entry %s: %w", f.Name, err)
		}
	}
	if err := zw.SetComment(comment); err != nil {
		return err
	}
	return zw.Close()
}

// rubyzipTempName is the temporary file rubyzip commits to (Dir::Tmpname.create(basename,
// dirname)): <basename><YYYYMMDD>-<pid>-<random base36>, in the zip's own directory.
func rubyzipTempName(zipPath string, now time.Time, pid int, random uint32) string {
	return zipPath + now.Format("20060102") + "-" + strconv.Itoa(pid) + "-" + strconv.FormatUint(uint64(random), 36)
}

// rubyzipCommit is what closing a Zip::File does when sort_entries made it "changed": it writes
// the entries in name order to a temporary file beside the zip, reading each entry's raw bytes
// at the offsets found when the zip was opened from the zip's path opened again for that entry
// (an upload since then tears the result, or makes the copy fail), and renames it over the
// zip, without any lock.
func rubyzipCommit(zipPath string, ra *reopener, sorted []*zip.File, comment string) error {
	tmp := rubyzipTempName(zipPath, time.Now(), os.Getpid(), rand.Uint32())
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer os.Remove(tmp) // gone after the rename; removed when anything failed
	zw := zip.NewWriter(f)
	for _, e := range sorted {
		if err = ra.reopen(); err != nil {
			break
		}
		if err = zw.Copy(e); err != nil {
			err = fmt.Errorf("copying zip entry %s: %w", e.Name, err)
			break
		}
	}
	if err == nil {
		err = zw.SetComment(comment)
	}
	if err == nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, zipPath); err != nil {
		return err
	}
	return os.Chmod(zipPath, 0o644)
}

// reopener is the io.ReaderAt under a zip.Reader that reads the zip the way rubyzip does:
// through a file opened again by its path whenever reopen is called (once per entry).
type reopener struct {
	path string
	f    *os.File
}

func openReopener(path string) (*reopener, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &reopener{path: path, f: f}, nil
}

func (r *reopener) ReadAt(p []byte, off int64) (int, error) { return r.f.ReadAt(p, off) }

// reopen opens the path again; later reads see whatever file is there now.
func (r *reopener) reopen() error {
	f, err := os.Open(r.path)
	if err != nil {
		return err
	}
	r.f.Close()
	r.f = f
	return nil
}

func (r *reopener) size() (int64, error) {
	fi, err := r.f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

func (r *reopener) Close() error { return r.f.Close() }
