package files

import (
	"context"
	"errors"
	"fmt"
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
	ResultOpen            = "open"             // a process on this machine has it open (it may be about to flock it)
	ResultRefused         = "refused"          // the extractors were not said to be stopped
	ResultError           = "error"
)

// RemoveOptions configure Remove.
type RemoveOptions struct {
	// DryRun runs every check and removes nothing.
	DryRun bool
	// ExtractorsStopped says that no process anywhere (on any NFS client) can open the lock
	// files while they are removed: every extractor is stopped. Without it Remove removes nothing
	// (see ErrUnsafeRemoval); a dry run still runs every check.
	ExtractorsStopped bool
	// ProcRoot is where processes are listed, to find local ones that have the file open. The
	// default is /proc.
	ProcRoot string
}

// UnsafeRemoval says why a lock file is not removed while extractors may run. OpenStudio's
// extractor opens analysis_zip.lock (File.open(path, 'a')), then flocks it, and never checks
// after the flock that the path still names the file it locked. One that has opened the file but
// not yet flocked it when the file is unlinked goes on to lock the removed inode, while the next
// extractor finds no lock file, creates a new one and locks that: two extractions at once. Taking
// the flock before the unlink does not prevent this (the opener is not waiting on it), and no
// check on this machine can see a process on another NFS client that holds the file open.
const UnsafeRemoval = "removing a flock lock file is safe only while no extractor can open it: " +
	"OpenStudio's extractor opens analysis_zip.lock, then flocks it, and never checks that the path " +
	"still names the file it locked, so one caught between the two would lock the removed file while " +
	"the next creates a new one, and both extract at once; nobody can see that from another NFS client"

// Removal is what happened to one listed lock file.
type Removal struct {
	Path   string `json:"path"`
	Result string `json:"result"`
	Detail string `json:"detail,omitempty"`
}

// Remove deletes the lock file f listed by Find, only if it is still the same file (same
// device, inode, size, modification and change time), has still no receipt, and nobody holds its
// flock: the checks run with the file open and flocked by Remove itself, and the path is
// checked to still name that inode, and no other process on this machine to have it open, just
// before it is unlinked. It removes nothing unless o.ExtractorsStopped (see UnsafeRemoval); with
// o.DryRun it runs every check and removes nothing.
func Remove(ctx context.Context, f File, o RemoveOptions) Removal {
	r := Removal{Path: f.Path}
	if o.ProcRoot == "" {
		o.ProcRoot = "/proc"
	}
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
	if pids := localOpeners(o.ProcRoot, f.Dev, f.Inode); len(pids) > 0 {
		r.Result, r.Detail = ResultOpen, fmt.Sprintf("open in process %v on this machine: it may be about to flock it", pids)
		return r
	}
	if o.DryRun {
		r.Result = ResultWouldRemove
		return r
	}
	if !o.ExtractorsStopped {
		r.Result, r.Detail = ResultRefused, UnsafeRemoval
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
