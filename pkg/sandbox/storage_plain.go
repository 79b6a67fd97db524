package sandbox

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// plainStorage is the real app's storage (modes none and local). Paperclip persists the record,
// deletes the old file and writes the new one straight to its final path; InitializeAnalysis
// runs the real extract_archive: entries in name order, each written in place unless a file of
// that name already exists, and on close rubyzip's sort-rewrite of the zip (unless
// noRewrite). With a keyed mutex (local mode) each analysis's upload and extraction are
// serialised within this process only.
type plainStorage struct {
	l         layout
	p         pacer
	hold      time.Duration
	mu        *keyedMutex // nil in mode none
	noRewrite bool
}

func (s *plainStorage) lock(id string) func() {
	if s.mu == nil {
		return func() {}
	}
	return s.mu.lock(id)
}

func (s *plainStorage) storeZip(ctx context.Context, id, name, loaded string, body []byte, save func() (string, error)) error {
	unlock := s.lock(id)
	defer unlock()
	dir := s.l.zipDir(id)
	if err := sleepCtx(ctx, s.hold); err != nil {
		return err
	}
	// Mongoid saves the document, then Paperclip's after_save deletes the file the record
	// named when the request loaded it (two uploads that loaded it before either saved both
	// write one file in place) and writes the new one.
	if _, err := save(); err != nil {
		return err
	}
	if loaded != "" {
		if err := os.Remove(filepath.Join(dir, loaded)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeInPlace(ctx, s.p, filepath.Join(dir, name), body)
}

func (s *plainStorage) dropZip(ctx context.Context, id string, save func() (string, error)) error {
	unlock := s.lock(id)
	defer unlock()
	name, err := save()
	if err != nil || name == "" {
		return err
	}
	return s.l.removeZip(id, name)
}

func (s *plainStorage) initialize(ctx context.Context, id string, zipName func() (string, error)) error {
	unlock := s.lock(id)
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
