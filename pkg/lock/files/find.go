// Package files finds and removes stale lock files on a shared volume. OpenStudio Server
// serialises the extraction of an analysis zip with flock on analysis_dir/analysis_zip.lock and
// writes analysis_zip.receipt when extraction has finished; a lock file without its receipt that
// nobody holds and that has not changed for a while is debris of an extraction that died.
// Removal re-checks, with the file open and flocked, that it is the very file that was listed.
package files

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// DefaultNames are the lock file names looked for when none is given.
var DefaultNames = []string{"analysis_zip.lock"}

// DefaultMinAge is how long a lock file must be unchanged before it can be stale.
const DefaultMinAge = 10 * time.Minute

// Statuses of a listed lock file.
const (
	StatusStale = "stale" // no receipt, not flocked, older than the minimum age
	StatusHeld  = "held"  // no receipt but flocked right now: an extraction in progress
)

// Options configure Find.
type Options struct {
	// Root is the directory walked (symbolic links are not followed).
	Root string
	// Names are file name globs (filepath.Match) of lock files. The default is DefaultNames.
	Names []string
	// MinAge is the minimum time since the lock file's last change. The default is
	// DefaultMinAge; a negative value means no minimum.
	MinAge time.Duration
	// Now is the clock. The default is time.Now.
	Now func() time.Time
}

// File is one lock file without its receipt.
type File struct {
	Path    string    `json:"path"`
	Receipt string    `json:"receipt"` // the receipt that is missing
	Status  string    `json:"status"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
	// ChangeTime is the inode's ctime: a file put in its place has another, even when the
	// inode number is reused and size and mtime are forged.
	ChangeTime time.Time `json:"changeTime"`
	AgeSeconds int64     `json:"ageSeconds"`
	Dev        uint64    `json:"dev"`
	Inode      uint64    `json:"inode"`
}

// Age returns how long ago the file last changed.
func (f File) Age() time.Duration { return time.Duration(f.AgeSeconds) * time.Second }

// ReceiptPath returns the receipt that marks the lock's work done: X.lock -> X.receipt.
func ReceiptPath(lockPath string) string {
	return strings.TrimSuffix(lockPath, ".lock") + ".receipt"
}

// Find walks o.Root and calls emit for every lock file without its receipt that is older than
// o.MinAge, marking those flocked right now as held. Unreadable directories are skipped and
// returned as warnings.
func Find(ctx context.Context, o Options, emit func(File) error) (warnings []string, err error) {
	if o.Root == "" {
		return nil, errors.New("no root directory given")
	}
	if st, err := os.Stat(o.Root); err != nil {
		return nil, fmt.Errorf("root %s: %w", o.Root, err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("root %s is not a directory", o.Root)
	}
	if len(o.Names) == 0 {
		o.Names = DefaultNames
	}
	for _, n := range o.Names {
		if _, err := filepath.Match(n, ""); err != nil {
			return nil, fmt.Errorf("bad name pattern %q: %v", n, err)
		}
	}
	if o.MinAge == 0 {
		o.MinAge = DefaultMinAge
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	now := o.Now()
	err = filepath.WalkDir(o.Root, func(path string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			warnings = append(warnings, err.Error())
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !matchAny(o.Names, d.Name()) {
			return nil
		}
		f, ok, err := examine(path, now, o.MinAge)
		if err != nil {
			warnings = append(warnings, err.Error())
			return nil
		}
		if !ok {
			return nil
		}
		return emit(f)
	})
	return warnings, err
}

func matchAny(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := filepath.Match(g, name); ok {
			return true
		}
	}
	return false
}

// examine stats one lock file; ok is false when it has its receipt or is too young.
func examine(path string, now time.Time, minAge time.Duration) (File, bool, error) {
	receipt := ReceiptPath(path)
	if receipt == path {
		receipt = path + ".receipt"
	}
	if _, err := os.Lstat(receipt); err == nil {
		return File{}, false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return File{}, false, err
	}
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return File{}, false, nil
		}
		return File{}, false, &fs.PathError{Op: "lstat", Path: path, Err: err}
	}
	mtime, ctime := statTimes(&st)
	age := now.Sub(mtime)
	if minAge > 0 && age < minAge {
		return File{}, false, nil
	}
	f := File{Path: path, Receipt: receipt, Status: StatusStale, Size: st.Size, ModTime: mtime.UTC(),
		ChangeTime: ctime.UTC(),
		AgeSeconds: int64(age / time.Second), Dev: uint64(st.Dev), Inode: st.Ino}
	held, err := flocked(path)
	if err != nil {
		return File{}, false, err
	}
	if held {
		f.Status = StatusHeld
	}
	return f, true, nil
}

// flocked reports whether another open file description holds a flock on path right now.
func flocked(path string) (bool, error) {
	fd, err := openForLock(path)
	if err != nil {
		return false, err
	}
	defer fd.Close()
	held, err := tryLock(fd)
	if err != nil || held {
		return held, err
	}
	_ = syscall.Flock(int(fd.Fd()), syscall.LOCK_UN)
	return false, nil
}

// openForLock opens path without following a symbolic link, for writing when possible: on NFS,
// flock is emulated with byte-range locks and an exclusive one needs a writable descriptor.
func openForLock(path string) (*os.File, error) {
	fd, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		fd, err = os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	}
	return fd, err
}

// tryLock takes a non-blocking flock (exclusive if the file is writable, else shared); held is
// true when someone else holds a conflicting one.
func tryLock(fd *os.File) (held bool, err error) {
	how := syscall.LOCK_EX
	if fl, ferr := fcntlFlags(fd); ferr == nil && fl&syscall.O_ACCMODE == syscall.O_RDONLY {
		how = syscall.LOCK_SH
	}
	for {
		err = syscall.Flock(int(fd.Fd()), how|syscall.LOCK_NB)
		if err != syscall.EINTR {
			break
		}
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	if err != nil {
		return false, &fs.PathError{Op: "flock", Path: fd.Name(), Err: err}
	}
	return false, nil
}

func fcntlFlags(fd *os.File) (int, error) {
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd.Fd(), syscall.F_GETFL, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(r), nil
}
