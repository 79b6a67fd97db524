package files

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// Results of a removal.
const (
	ResultRemoved         = "removed"
	ResultWouldRemove     = "would-remove"     // dry run: every check passed
	ResultChanged         = "changed"          // not the file that was listed (inode, size or mtime differ)
	ResultFlocked         = "flocked"          // someone holds its flock now
	ResultReceiptAppeared = "receipt-appeared" // the work finished after all
	ResultGone            = "gone"             // already removed
	ResultNotStale        = "not-stale"        // listed as held, never removed
	ResultError           = "error"
)

// Removal is what happened to one listed lock file.
type Removal struct {
	Path   string `json:"path"`
	Result string `json:"result"`
	Detail string `json:"detail,omitempty"`
}

// Remove deletes the lock file f listed by Find, only if it is still the same file (same
// device, inode, size, modification and change time), has still no receipt, and nobody holds its
// flock: the checks run with the file open and flocked by Remove itself, and the path is
// checked to still name that inode just before it is unlinked. With dryRun it runs every check
// and removes nothing.
func Remove(ctx context.Context, f File, dryRun bool) Removal {
	r := Removal{Path: f.Path}
	if f.Status != StatusStale {
		r.Result, r.Detail = ResultNotStale, "listed as "+f.Status
		return r
	}
	if err := ctx.Err(); err != nil {
		r.Result, r.Detail = ResultError, err.Error()
		return r
	}
	fd, err := openForLock(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		r.Result = ResultGone
		return r
	}
	if err != nil {
		r.Result, r.Detail = ResultError, err.Error()
		return r
	}
	defer fd.Close()
	if d := sameFile(fd, f); d != "" {
		r.Result, r.Detail = ResultChanged, d
		return r
	}
	held, err := tryLock(fd)
	if err != nil {
		r.Result, r.Detail = ResultError, err.Error()
		return r
	}
	if held {
		r.Result, r.Detail = ResultFlocked, "someone holds its flock now: an extraction is running"
		return r
	}
	defer func() { _ = syscall.Flock(int(fd.Fd()), syscall.LOCK_UN) }()
	if _, err := os.Lstat(f.Receipt); err == nil {
		r.Result, r.Detail = ResultReceiptAppeared, f.Receipt
		return r
	}
	// The path must still name the inode we hold (not a file put there since we opened it).
	var st syscall.Stat_t
	if err := syscall.Lstat(f.Path, &st); err != nil || uint64(st.Dev) != f.Dev || st.Ino != f.Inode {
		r.Result, r.Detail = ResultChanged, "the path now names another file"
		return r
	}
	if dryRun {
		r.Result = ResultWouldRemove
		return r
	}
	if err := os.Remove(f.Path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			r.Result = ResultGone
			return r
		}
		r.Result, r.Detail = ResultError, err.Error()
		return r
	}
	r.Result = ResultRemoved
	return r
}

// sameFile returns why the open file is not the one listed, or "".
func sameFile(fd *os.File, f File) string {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(fd.Fd()), &st); err != nil {
		return "fstat: " + err.Error()
	}
	mtime, ctime := statTimes(&st)
	switch {
	case uint64(st.Dev) != f.Dev || st.Ino != f.Inode:
		return "replaced by another file (inode changed)"
	case st.Size != f.Size:
		return "size changed since it was listed"
	case !mtime.Equal(f.ModTime):
		return "modified since it was listed"
	case !ctime.Equal(f.ChangeTime):
		return "replaced or its inode changed since it was listed (ctime differs)"
	}
	return ""
}
