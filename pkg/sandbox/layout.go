package sandbox

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// TempPrefix starts the name of every temp file or directory a writer of the sandbox puts aside
// before renaming it in place (--locking redlock): one left behind is what a writer killed
// mid-write left (osctl stress --nemesis reports them).
const TempPrefix = ".osctl-tmp-"

// Names the app itself writes into judged directories (the stress detector ignores them).
const (
	lockFileName    = "analysis_zip.lock"
	receiptFileName = "analysis_zip.receipt"
	fenceFileName   = ".osctl-fence"
)

// layout names the paths of the state directory, as on /mnt/openstudio.
type layout struct{ root string } // <state>/server

func (l layout) analysisAssets(id string) string {
	return filepath.Join(l.root, "assets", "analyses", id)
}
func (l layout) zipDir(id string) string     { return filepath.Join(l.analysisAssets(id), "original") }
func (l layout) extractDir(id string) string { return filepath.Join(l.root, "analyses", id) }
func (l layout) resultDir(resultID string) string {
	return filepath.Join(l.root, "assets", "data_points", resultID, "files", "original")
}

// pacer writes in pieces with a pause after each, so that concurrent non-atomic writes interleave
// the way they do on a loaded server (and on NFS).
type pacer struct {
	chunk int
	delay time.Duration
}

// write writes data to w piece by piece; it stops early when ctx ends.
func (p pacer) write(ctx context.Context, w io.Writer, data []byte) error {
	for off := 0; off < len(data); off += p.chunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		end := min(off+p.chunk, len(data))
		if _, err := w.Write(data[off:end]); err != nil {
			return err
		}
		p.pause()
	}
	return nil
}

// copy copies r to w piece by piece; it stops early when ctx ends.
func (p pacer) copy(ctx context.Context, w io.Writer, r io.Reader) error {
	buf := make([]byte, p.chunk)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, rerr := io.ReadFull(r, buf)
		if n > 0 {
			if _, err := w.Write(buf[:n]); err != nil {
				return err
			}
			p.pause()
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			return nil
		}
		if rerr != nil {
			return rerr
		}
	}
}

func (p pacer) pause() {
	if p.delay > 0 {
		time.Sleep(p.delay)
	}
}

// sleepCtx sleeps d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// removeZip deletes a stored seed zip and then, as Paperclip's flush_deletes does, every
// parent directory that this leaves empty, up to the analysis's own assets directory (the
// volume's assets/analyses/ holds the other analyses).
func (l layout) removeZip(id, name string) error {
	p := filepath.Join(l.zipDir(id), name)
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil || dir == l.analysisAssets(id) {
			return nil
		}
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
