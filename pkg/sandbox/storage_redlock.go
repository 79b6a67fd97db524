package sandbox

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// zipStep is the one lock step for everything that touches an analysis's zip and extraction:
// upload and extraction of one analysis share the key redlock:<id>:analysis_zip.
const zipStep = "analysis_zip"

// lease is a held lock: its context ends when the lock is lost; Token is its fencing token.
type lease interface {
	Context() context.Context
	Token() int64
	Release(ctx context.Context) error
}

// leaser acquires the lock of one key, waiting for it until ctx ends.
type leaser interface {
	acquire(ctx context.Context, key string) (lease, error)
}

// errFenced says a write was refused because a newer lock holder already wrote.
var errFenced = errors.New("fenced")

// redlockStorage is the fixed app: each analysis's upload and extraction run under one Redlock
// lease; files are written to a temp name and renamed; an extraction is built in a temp
// directory and swapped in whole, and a seed zip whose entries are not in name order is
// rewritten sorted atomically under the same lease; the lease's fencing token is recorded in
// .osctl-fence beside the zip and in the extraction, and a write whose token is lower than the
// recorded one is refused.
type redlockStorage struct {
	l     layout
	p     pacer
	hold  time.Duration
	locks leaser
	keyFn func(id, step string) string
	logf  func(string, ...any)
	// noRewrite turns off the extraction's sort-rewrite of the seed zip.
	noRewrite bool
}

// withLease runs fn under the analysis's lock, on a context that ends when the request ends or
// the lock is lost.
func (s *redlockStorage) withLease(ctx context.Context, id, what string, fn func(ctx context.Context, token int64) error) error {
	key := s.keyFn(id, zipStep)
	l, err := s.locks.acquire(ctx, key)
	if err != nil {
		return fmt.Errorf("acquiring %s: %w", key, err)
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		defer cancel()
		if err := l.Release(rctx); err != nil {
			s.logf("release of %s (token %d) after %s: %v", key, l.Token(), what, err)
		}
	}()
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(l.Context(), cancel)
	defer stop()
	if err := sleepCtx(lctx, s.hold); err != nil {
		return s.lost(l, key, what, err)
	}
	if err := fn(lctx, l.Token()); err != nil {
		return s.lost(l, key, what, err)
	}
	if l.Context().Err() != nil {
		// Lost after the write: the write itself was fenced, but say so.
		s.logf("LOST LOCK %s (token %d) right after %s of analysis %s", key, l.Token(), what, id)
	}
	return nil
}

func (s *redlockStorage) lost(l lease, key, what string, err error) error {
	if l.Context().Err() != nil && !errors.Is(err, errFenced) {
		s.logf("LOST LOCK %s (token %d) during %s: stopped (%v)", key, l.Token(), what, err)
		return fmt.Errorf("lock %s lost during %s: %w", key, what, err)
	}
	return err
}

func (s *redlockStorage) storeZip(ctx context.Context, id, name, _ string, body []byte, save func() (string, error)) error {
	return s.withLease(ctx, id, "upload", func(ctx context.Context, token int64) error {
		dir := s.l.zipDir(id)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		tmp, err := writeTemp(ctx, s.p, dir, body)
		if err != nil {
			return err
		}
		defer os.Remove(tmp)
		fence := filepath.Join(s.l.analysisAssets(id), fenceFileName)
		if err := s.checkFence(fence, token, "upload of analysis "+id); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
			return err
		}
		prev, err := save()
		if err != nil {
			return err
		}
		if prev != "" && prev != name {
			if err := os.Remove(filepath.Join(dir, prev)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		return recordFence(fence, token)
	})
}

func (s *redlockStorage) dropZip(ctx context.Context, id string, save func() (string, error)) error {
	return s.withLease(ctx, id, "zip removal", func(ctx context.Context, token int64) error {
		name, err := save()
		if err != nil || name == "" {
			return err
		}
		return s.l.removeZip(id, name)
	})
}

// initialize runs each attempt under the analysis's lease: the zip the record names is read
// whole, sort-rewritten atomically (temp file + rename, fenced) when its entries are not in
// name order, and extracted into a temporary directory that replaces the extraction whole.
func (s *redlockStorage) initialize(ctx context.Context, id string, zipName func() (string, error)) error {
	var err error
	for attempt := 1; ; attempt++ {
		err = s.withLease(ctx, id, "extraction", func(ctx context.Context, token int64) error {
			name, err := zipName()
			if err != nil {
				return err
			}
			return s.extractOnce(ctx, id, name, token)
		})
		if err == nil || ctx.Err() != nil || attempt == initAttempts {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("Extraction of the seed.zip file failed %d times with error %v", initAttempts, err)
	}
	return nil
}

func (s *redlockStorage) extractOnce(ctx context.Context, id, name string, token int64) error {
	if name == "" {
		return errNoZip
	}
	zipPath := filepath.Join(s.l.zipDir(id), name)
	b, err := os.ReadFile(zipPath)
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return fmt.Errorf("opening %s: %v", name, err)
	}
	// The receipt names the zip the extraction was made from: that zip extracted again gives
	// the same directory, so a start after no new upload has nothing to do.
	sum := sha256.Sum256(b)
	made := "zip sha256 " + hex.EncodeToString(sum[:]) + "\n"
	if r, err := os.ReadFile(filepath.Join(s.l.extractDir(id), receiptFileName)); err == nil && strings.HasSuffix(string(r), made) {
		return nil
	}
	parent := filepath.Dir(s.l.extractDir(id))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, TempPrefix+id+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := extractEntries(ctx, s.p, zr.File, tmp, nil); err != nil {
		return err
	}
	final := b
	if !s.noRewrite && !inNameOrder(zr.File) {
		var sorted bytes.Buffer
		if err := writeSorted(&sorted, byName(zr.File), zr.Comment); err != nil {
			return err
		}
		final = sorted.Bytes()
		sum = sha256.Sum256(final)
	}
	stamp := time.Now().UTC().Format(time.RFC3339Nano) + "\nzip sha256 " + hex.EncodeToString(sum[:]) + "\n"
	if err := os.WriteFile(filepath.Join(tmp, receiptFileName), []byte(stamp), 0o644); err != nil {
		return err
	}
	if err := recordFence(filepath.Join(tmp, fenceFileName), token); err != nil {
		return err
	}
	fence := filepath.Join(s.l.analysisAssets(id), fenceFileName)
	if err := s.checkFence(fence, token, "extraction of analysis "+id); err != nil {
		return err
	}
	if err := s.checkFence(filepath.Join(s.l.extractDir(id), fenceFileName), token, "extraction of analysis "+id); err != nil {
		return err
	}
	if !bytes.Equal(final, b) {
		ztmp, err := writeTemp(ctx, pacer{chunk: max(s.p.chunk, 1)}, s.l.zipDir(id), final)
		if err != nil {
			return err
		}
		defer os.Remove(ztmp)
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := os.Rename(ztmp, zipPath); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := swapDir(tmp, s.l.extractDir(id)); err != nil {
		return err
	}
	return recordFence(fence, token)
}

// removeExtraction removes the extraction under the analysis's lease.
func (s *redlockStorage) removeExtraction(ctx context.Context, id string) error {
	return s.withLease(ctx, id, "extraction removal", func(ctx context.Context, token int64) error {
		return os.RemoveAll(s.l.extractDir(id))
	})
}

func (s *redlockStorage) storeResult(ctx context.Context, resultID, name string, body []byte) error {
	dir := s.l.resultDir(resultID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := writeTemp(ctx, s.p, dir, body)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// checkFence refuses a write whose token is lower than the one recorded in path.
func (s *redlockStorage) checkFence(path string, token int64, what string) error {
	rec, err := readFence(path)
	if err != nil {
		return err
	}
	if rec > token {
		s.logf("FENCED: refused %s with token %d: token %d already wrote (a stale lock holder)", what, token, rec)
		return fmt.Errorf("%w: refused %s with token %d, token %d already wrote", errFenced, what, token, rec)
	}
	return nil
}

func readFence(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("fence record %s is corrupt: %v", path, err)
	}
	return n, nil
}

// recordFence records token in path atomically unless a higher one is there already.
func recordFence(path string, token int64) error {
	if rec, err := readFence(path); err == nil && rec >= token {
		return nil
	}
	tmp, err := writeTemp(context.Background(), pacer{chunk: 64}, filepath.Dir(path), []byte(strconv.FormatInt(token, 10)+"\n"))
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// writeTemp writes body to a new .osctl-tmp-* file in dir, synced, and returns its path.
func writeTemp(ctx context.Context, p pacer, dir string, body []byte) (string, error) {
	f, err := os.CreateTemp(dir, TempPrefix+"*")
	if err != nil {
		return "", err
	}
	err = f.Chmod(0o644) // CreateTemp makes 0600; the final file reads like an in-place one
	if err == nil {
		err = p.write(ctx, f, body)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// swapDir puts the directory src in place of dst whole: an atomic exchange (renameat2
// RENAME_EXCHANGE) when dst exists, else a rename. The old directory ends up at src, which the
// caller removes.
func swapDir(src, dst string) error {
	err := exchange(src, dst)
	if err == nil {
		return nil
	}
	if errors.Is(err, unix.ENOENT) {
		return os.Rename(src, dst)
	}
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		// The file system cannot exchange (some NFS servers): move the old one aside first.
		old := src + ".old"
		if err := os.Rename(dst, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := os.Rename(src, dst); err != nil {
			return err
		}
		return os.Rename(old, src)
	}
	return fmt.Errorf("replacing %s: %v", dst, err)
}
