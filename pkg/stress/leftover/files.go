package leftover

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/lock/files"
	"github.com/osctl/osctl/pkg/stress/history"
)

// readFiles lists, in each of dirs under root, the lock files without their receipt (stale or
// held, with no minimum age: the run just ended) and the temp files and directories (their names
// start with prefix).
func readFiles(ctx context.Context, root, prefix string, dirs []string, now time.Time, l *history.Leftovers) {
	for _, d := range dirs {
		abs := filepath.Join(root, filepath.FromSlash(d))
		if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
			continue // never written (an analysis not uploaded to)
		}
		warns, err := files.Find(ctx, files.Options{Root: abs, MinAge: -1, Now: func() time.Time { return now }}, func(f files.File) error {
			l.LockFiles = append(l.LockFiles, history.LeftoverFile{Path: rel(root, f.Path), Status: f.Status, Size: f.Size, ModTime: f.ModTime})
			return nil
		})
		l.Warnings = append(l.Warnings, warns...)
		if err != nil {
			l.Warnings = append(l.Warnings, "lock files in "+d+": "+err.Error())
		}
		if err := temps(root, prefix, abs, l); err != nil {
			l.Warnings = append(l.Warnings, "temp files in "+d+": "+err.Error())
		}
	}
	asides(root, prefix, dirs, l)
	sort.Slice(l.LockFiles, func(i, j int) bool { return l.LockFiles[i].Path < l.LockFiles[j].Path })
	sort.Slice(l.TempFiles, func(i, j int) bool { return l.TempFiles[i].Path < l.TempFiles[j].Path })
}

// temps walks dir (symbolic links not followed) for names starting with prefix; a temp
// directory is listed whole, not entered.
func temps(root, prefix, dir string, l *history.Leftovers) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed while walking (a rename in place)
			}
			return err
		}
		if !strings.HasPrefix(d.Name(), prefix) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil // gone since the directory was read
		}
		l.TempFiles = append(l.TempFiles, history.LeftoverFile{Path: rel(root, p), Dir: d.IsDir(), Size: info.Size(), ModTime: info.ModTime().UTC()})
		if d.IsDir() {
			return fs.SkipDir
		}
		return nil
	})
}

// asides lists the temp directories built beside the run's directories (an extraction of
// analysis <id> is built in server/analyses/.osctl-tmp-<id>-* and swapped in whole): one read of
// each parent directory, keeping the names of the run's own.
func asides(root, prefix string, dirs []string, l *history.Leftovers) {
	ids := map[string][]string{} // parent -> base names of the run's dirs in it
	for _, d := range dirs {
		parent := filepath.Dir(filepath.Join(root, filepath.FromSlash(d)))
		ids[parent] = append(ids[parent], filepath.Base(d))
	}
	for parent, bases := range ids {
		matches, err := filepath.Glob(filepath.Join(parent, prefix+"*"))
		if err != nil {
			continue
		}
		for _, m := range matches {
			name := filepath.Base(m)
			for _, b := range bases {
				if !strings.HasPrefix(name, prefix+b+"-") {
					continue
				}
				if info, err := os.Lstat(m); err == nil {
					l.TempFiles = append(l.TempFiles, history.LeftoverFile{Path: rel(root, m), Dir: info.IsDir(), Size: info.Size(), ModTime: info.ModTime().UTC()})
				}
				break
			}
		}
	}
}

func rel(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}
