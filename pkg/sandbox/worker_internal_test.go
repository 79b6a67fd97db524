package sandbox

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
)

// TestWorkerLooksAgainOnlyAfterItsInterval drives the worker's loop with a wait the test
// releases (a fake of time only; the queue is a real Redis): an idle worker waits its interval,
// takes nothing while it waits, and after a wait takes every queued job back to back.
func TestWorkerLooksAgainOnlyAfterItsInterval(t *testing.T) {
	q := resque{rdb: testenv.StartRedis(t).Client(), prefix: "osctl:sandbox:t:resque:"}
	waits, release := make(chan time.Duration), make(chan struct{})
	var mu sync.Mutex
	var performed []string
	w := &worker{q: q, queues: workerQueues, interval: 7 * time.Second, logf: t.Logf,
		wait: func(ctx context.Context, d time.Duration) error {
			select {
			case waits <- d:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return ctx.Err()
		},
		perform: func(_ context.Context, class string, args []any) error {
			mu.Lock()
			defer mu.Unlock()
			performed = append(performed, fmt.Sprint(class, args))
			return nil
		}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.run(ctx)
	if d := <-waits; d != 7*time.Second {
		t.Fatalf("an idle worker waits %v, want its interval 7s", d)
	}
	for i := range 2 {
		if err := q.enqueue(ctx, queueAnalysisWrappers, classInitialize, "batch_run", fmt.Sprint("a", i), "j"); err != nil {
			t.Fatal(err)
		}
	}
	// The worker is inside its wait: the jobs stay queued.
	if n, _ := q.pending(ctx, workerQueues); n != 2 || w.busy.Load() {
		t.Fatalf("while the worker waits: %d jobs pending (want 2), busy %v (want false)", n, w.busy.Load())
	}
	mu.Lock()
	if len(performed) != 0 {
		t.Fatalf("performed %v while waiting", performed)
	}
	mu.Unlock()
	release <- struct{}{}
	if d := <-waits; d != 7*time.Second {
		t.Fatalf("waits %v, want 7s", d)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(performed) != 2 || !strings.Contains(performed[0], "a0") || !strings.Contains(performed[1], "a1") {
		t.Fatalf("performed %v, want both jobs in order, with no wait between them", performed)
	}
	if n, _ := q.pending(ctx, workerQueues); n != 0 || w.performed.Load() != 2 {
		t.Fatalf("%d pending, %d performed", n, w.performed.Load())
	}
}

func newTestStudio(t *testing.T) *openStudioService {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s, err := New(ctx, Config{StateDir: t.TempDir(), Masters: []redis.UniversalClient{testenv.StartRedis(t).Client()}, BackgroundInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	return s.studio
}

// TestStartsThatSawOneLengthShareOneJob: find_or_create_by(index: jobs.length) of starts that
// read the same jobs.length finds the one job, however many create it at once.
func TestStartsThatSawOneLengthShareOneJob(t *testing.T) {
	s := newTestStudio(t)
	files := make([]string, 20)
	var wg sync.WaitGroup
	for i := range files {
		wg.Go(func() {
			f, err := s.findOrCreateJob("a1", "batch_run", 0)
			if err != nil {
				t.Error(err)
			}
			files[i] = f
		})
	}
	wg.Wait()
	jobs, err := s.analysisJobs("a1")
	if err != nil || len(jobs) != 1 {
		t.Fatalf("%d jobs (%v) after 20 concurrent find-or-creates of index 0, want 1", len(jobs), err)
	}
	for _, f := range files {
		if f != files[0] {
			t.Fatalf("find-or-create answered %v, want one job", files)
		}
	}
	if f, _ := s.findOrCreateJob("a1", "sequential_search", 0); f == files[0] {
		t.Errorf("another analysis_type at the same index found the batch_run job")
	}
	if jobs, _ := s.analysisJobs("a1"); len(jobs) != 2 || jobs[0]["index"] != 0.0 || jobs[1]["index"] != 0.0 {
		t.Errorf("jobs %v, want two at index 0", jobs)
	}
}

func storedZipBytes(t *testing.T, content byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range []string{"b.txt", "a.txt"} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Store, Modified: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(bytes.Repeat([]byte{content}, 1000))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestRubyzipCommitReadsTheZipAsItIsNow: rubyzip reads each entry from the zip's path opened
// again, at the offsets of the central directory it read at open: a zip replaced since (here by
// rename, a new file) is copied at those offsets, and the rewrite holds the new bytes under the
// old checksums: torn.
func TestRubyzipCommitReadsTheZipAsItIsNow(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "seed.zip")
	if err := os.WriteFile(path, storedZipBytes(t, 'x'), 0o644); err != nil {
		t.Fatal(err)
	}
	ra, err := openReopener(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ra.Close()
	size, _ := ra.size()
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		t.Fatal(err)
	}
	// Another upload replaces the zip: same layout, other bytes.
	if err := os.WriteFile(path+".new", storedZipBytes(t, 'y'), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	if err := rubyzipCommit(path, ra, byName(zr.File), zr.Comment); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	out, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if out.File[0].Name != "a.txt" || out.File[1].Name != "b.txt" {
		t.Fatalf("rewritten entries %s, %s: want name order", out.File[0].Name, out.File[1].Name)
	}
	raw, _ := out.File[0].OpenRaw()
	data, _ := io.ReadAll(raw)
	if !bytes.Equal(data, bytes.Repeat([]byte("y"), 1000)) {
		t.Fatalf("rewritten a.txt holds %q..., want the replacing zip's bytes", data[:8])
	}
	rc, _ := out.File[0].Open()
	if _, err := io.ReadAll(rc); !errors.Is(err, zip.ErrChecksum) {
		t.Fatalf("reading the rewritten a.txt: %v, want a checksum error (torn)", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("files left beside the zip: %v", ents)
	}
}

func TestRubyzipTempName(t *testing.T) {
	got := rubyzipTempName("/m/original/seed.zip", time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC), 4242, 46655)
	if got != "/m/original/seed.zip20261130-4242-zzz" {
		t.Fatalf("temp name %q, want <zip><YYYYMMDD>-<pid>-<random base36>", got)
	}
}

// TestPaperclipNames holds what Ruby 3.1 gives for File.basename(n, ".*") + "." +
// File.extname(n) without its leading dots, and Paperclip's restricted characters.
func TestPaperclipNames(t *testing.T) {
	for _, c := range []struct{ raw, clean, stored string }{
		{"out", "out", "out."},
		{"foo.", "foo.", "foo."},
		{"a.b.c", "a.b.c", "a.b.c"},
		{".bashrc", ".bashrc", ".bashrc."},
		{"a..b", "a..b", "a..b"},
		{"..x", "..x", "..x."},
		{"x..", "x..", "x.."},
		{"...", "...", "...."},
		{".a.b", ".a.b", ".a.b"},
		{"a b&c.zip", "a_b_c.zip", "a_b_c.zip"},
		{"&$+,/:;=?@<>[]{}|\\^~%# ", "_______________________", "_______________________."},
		{"é.zip", "é.zip", "é.zip"},
	} {
		clean := cleanFileName(c.raw)
		if clean != c.clean || storedName(clean) != c.stored {
			t.Errorf("%q: clean %q stored %q, want %q and %q", c.raw, clean, storedName(clean), c.clean, c.stored)
		}
	}
	for raw, want := range map[string]string{"a%20b.zip": "a b.zip", "%41%42": "AB", "100%.zip": "100%.zip", "%zz": "%zz", "50%%": "50%%", "a%2": "a%2", "x\xffy": "x\uFFFDy"} {
		if got := rackFileName(raw); got != want {
			t.Errorf("Rack file name of %q: %q, want %q", raw, got, want)
		}
	}
}

func TestDroppedFraction(t *testing.T) {
	s := &documents{drop: 0.3}
	n := 0
	for i := range 10000 {
		if s.dropped(fmt.Sprint("id-", i)) {
			n++
		}
	}
	if n < 2700 || n > 3300 {
		t.Errorf("drop fraction 0.3 dropped %d of 10000 ids", n)
	}
	for _, f := range []float64{0, 1} {
		s.drop = f
		if s.dropped("x") != (f == 1) {
			t.Errorf("drop fraction %v: dropped(x) = %v", f, s.dropped("x"))
		}
	}
}
