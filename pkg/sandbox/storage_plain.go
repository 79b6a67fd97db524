package sandbox

import (
	"archive/zip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// plainStorage is the real app's storage (modes none and local): Paperclip writes the zip straight
// to its final path, and the extraction writes each entry in place unless a file of that name
// already exists, then leaves analysis_zip.receipt so that later starts skip it. With a keyed
// mutex (local mode) each analysis's upload and extraction are serialised within this process
// only.
type plainStorage struct {
	l    layout
	p    pacer
	hold time.Duration
	mu   *keyedMutex // nil in mode none
}

func (s *plainStorage) lock(id string) func() {
	if s.mu == nil {
		return func() {}
	}
	return s.mu.lock(id)
}

func (s *plainStorage) storeZip(ctx context.Context, id, name string, body []byte) error {
	unlock := s.lock(id)
	defer unlock()
	dir := s.l.zipDir(id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := sleepCtx(ctx, s.hold); err != nil {
		return err
	}
	return writeInPlace(ctx, s.p, filepath.Join(dir, name), body)
}

func (s *plainStorage) extract(ctx context.Context, id string) error {
	unlock := s.lock(id)
	defer unlock()
	dir := s.l.extractDir(id)
	// The real app's non-atomic check: File.exist? on the receipt, then extract.
	if exists(filepath.Join(dir, receiptFileName)) {
		return nil
	}
	zipPath, err := currentZip(s.l.zipDir(id))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := sleepCtx(ctx, s.hold); err != nil {
		return err
	}
	// Extraction skips files that already exist.
	if err := extractAll(ctx, s.p, zipPath, dir, true); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, receiptFileName), []byte(time.Now().UTC().Format(time.RFC3339Nano)+"\n"), 0o644)
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

// extractEntry writes one zip entry to dest in paced pieces; a corrupt entry leaves what was
// extractAll unpacks every entry of zipPath into dir, checking each CRC. With skipExisting, files
// already in dir are left as they are (the real app's extraction, racing another one).
func extractAll(ctx context.Context, p pacer, zipPath, dir string, skipExisting bool) error {
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return fmt.Errorf("opening %s: %v", filepath.Base(zipPath), err)
	}
	defer zr.Close()
	for _, f := range zr.File {
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
		if skipExisting && exists(dest) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return err
		}
		if err := extractEntry(ctx, p, f, dest); err != nil {
			return err
		}
	}
	return nil
}

// written so far (as rubyzip does) and returns the error.
func extractEntry(ctx context.Context, p pacer, f *zip.File, dest string) error {
	rc, err := f.Open()
	if err != nil {
		return fmt.Errorf("zip entry %s: %v", f.Name, err)
	}
	defer rc.Close()
	out, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	p.pause()
	if err := p.copy(ctx, out, rc); err != nil {
		out.Close()
		return fmt.Errorf("zip entry %s: %v", f.Name, err)
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
