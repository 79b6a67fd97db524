package sandbox

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// plainStorage is the real app's storage (modes none, local and redlock-nofence). Paperclip
// persists the record, deletes the old file and writes the new one straight to its final path;
// InitializeAnalysis runs the real extract_archive: entries in name order, each written in place
// unless a file of that name already exists, and on close rubyzip's sort-rewrite of the zip
// (unless noRewrite). With locks each analysis's upload and extraction are serialised: within
// this process only (local mode), or across replicas by a Redlock lease that nothing checks
// while the work goes on (redlock-nofence).
type plainStorage struct {
	l         layout
	p         pacer
	hold      time.Duration
	locks     analysisLocks // nil in mode none
	noRewrite bool
}

// analysisLocks serialise the writes of one analysis.
type analysisLocks interface {
	// lock takes the lock of analysis id, waiting until ctx ends, and returns the context the
	// guarded work runs on and the unlock. The work does not learn whether the lock is still
	// held.
	// what names the work in the log ("upload", "extraction").
	lock(ctx context.Context, id, what string) (context.Context, func(), error)
}

// processLocks are the local mode's locks: a mutex per analysis in this process.
type processLocks struct{ km keyedMutex }

func (p *processLocks) lock(ctx context.Context, id, _ string) (context.Context, func(), error) {
	return ctx, p.km.lock(id), nil
}

func (s *plainStorage) lock(ctx context.Context, id, what string) (context.Context, func(), error) {
	if s.locks == nil {
		return ctx, func() {}, nil
	}
	return s.locks.lock(ctx, id, what)
}

func (s *plainStorage) storeZip(ctx context.Context, id, name, loaded string, body []byte, save func() (string, error)) error {
	ctx, unlock, err := s.lock(ctx, id, "upload")
	if err != nil {
		return err
	}
	defer unlock()
	dir := s.l.zipDir(id)
	if err := sleepCtx(ctx, s.hold); err != nil {
		return err
	}
	// Assigning the attachment queues the file the record named when the request loaded it for
	// deletion, if it exists then (Paperclip's queue_all_for_delete).
	queued := ""
	if loaded != "" && exists(filepath.Join(dir, loaded)) {
		queued = filepath.Join(dir, loaded)
	}
	// Mongoid saves the document; Paperclip's after_save then flushes the deletions and the
	// writes. Two uploads that both deleted before either created write one file in place.
	if _, err := save(); err != nil {
		return err
	}
	if queued != "" {
		if err := s.flushDeletes(queued, s.l.analysisAssets(id)); err != nil {
			return err
		}
	}
	// flush_writes: mkdir_p, then the upload's temp file (on the pod's own disk) cannot be
	// renamed onto the volume, so it is copied into the final path, truncating what is there.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	s.p.pause()
	return writeInPlace(ctx, s.p, filepath.Join(dir, name), body)
}

// flushDeletes is Paperclip's filesystem flush_deletes for one path: remove the file, then each
// parent directory that is left empty, up to top (Paperclip goes on until a rmdir fails; the
// sandbox stops at the analysis's own directory). On NFS each step is a round trip to the
// server: a pause after each is the window in which another upload's delete and create land.
func (s *plainStorage) flushDeletes(path, top string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	s.p.pause()
	for d := filepath.Dir(path); strings.HasPrefix(d, top); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			break // not empty (or already gone): Paperclip stops there
		}
		s.p.pause()
	}
	return nil
}

func (s *plainStorage) dropZip(ctx context.Context, id string, save func() (string, error)) error {
	_, unlock, err := s.lock(ctx, id, "zip removal")
	if err != nil {
		return err
	}
	defer unlock()
	name, err := save()
	if err != nil || name == "" {
		return err
	}
	return s.l.removeZip(id, name)
}

func (s *plainStorage) initialize(ctx context.Context, id string, zipName func() (string, error)) error {
	ctx, unlock, err := s.lock(ctx, id, "extraction")
	if err != nil {
		return err
	}
	defer unlock()
	// seed_zip.path is read once, when the job loads the analysis; each attempt opens it again.
	name, err := zipName()
	if err != nil {
		return err
	}
	for attempt := 1; ; attempt++ {
		if err = s.extractOnce(ctx, id, name); err == nil || ctx.Err() != nil || attempt == initAttempts {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("Extraction of the seed.zip file failed %d times with error %v", initAttempts, err)
	}
	return nil
}

// extractOnce is one extract_archive: Zip::File.open reads the central directory, the entries
// are extracted in name order, and closing the file (also after an error) commits the
// sort-rewrite when the entries were not in name order.
func (s *plainStorage) extractOnce(ctx context.Context, id, name string) error {
	if name == "" {
		return errNoZip
	}
	zipPath := filepath.Join(s.l.zipDir(id), name)
	ra, err := openReopener(zipPath)
	if err != nil {
		return err
	}
	defer ra.Close()
	size, err := ra.size()
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return fmt.Errorf("opening %s: %v", name, err)
	}
	sorted := byName(zr.File)
	dir := s.l.extractDir(id)
	err = os.MkdirAll(dir, 0o755)
	if err == nil {
		err = sleepCtx(ctx, s.hold)
	}
	if err == nil {
		err = extractEntries(ctx, s.p, sorted, dir, ra)
	}
	if !s.noRewrite && !inNameOrder(zr.File) {
		if cerr := rubyzipCommit(zipPath, ra, sorted, zr.Comment); err == nil && cerr != nil {
			err = fmt.Errorf("rewriting %s sorted: %v", name, cerr)
		}
	}
	return err
}

func (s *plainStorage) removeExtraction(ctx context.Context, id string) error {
	return os.RemoveAll(s.l.extractDir(id))
}

func (s *plainStorage) storeResult(ctx context.Context, resultID, name string, body []byte) error {
	dir := s.l.resultDir(resultID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeInPlace(ctx, s.p, filepath.Join(dir, name), body)
}

// writeInPlace truncates path and writes body in paced pieces (not atomic).
func writeInPlace(ctx context.Context, p pacer, path string, body []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	p.pause() // truncated and still empty: the window even a one-piece write has
	if err := p.write(ctx, f, body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
