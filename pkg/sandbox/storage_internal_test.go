package sandbox

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

// scriptedLeaser hands out leases with the given tokens, in order (pure logic: the fencing and
// lease-loss paths of redlockStorage, which real Redis cannot be made to produce on demand).
type scriptedLeaser struct {
	mu     sync.Mutex
	tokens []int64
	leases []*scriptedLease
}

type scriptedLease struct {
	ctx    context.Context
	cancel context.CancelFunc
	token  int64
}

func (l *scriptedLease) Context() context.Context      { return l.ctx }
func (l *scriptedLease) Token() int64                  { return l.token }
func (l *scriptedLease) Release(context.Context) error { l.cancel(); return nil }

func (s *scriptedLeaser) acquire(ctx context.Context, key string) (lease, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.tokens) == 0 {
		return nil, errors.New("no more leases")
	}
	lctx, cancel := context.WithCancel(ctx)
	l := &scriptedLease{ctx: lctx, cancel: cancel, token: s.tokens[0]}
	s.tokens = s.tokens[1:]
	s.leases = append(s.leases, l)
	return l, nil
}

// keepName is a storeZip save that records nothing: the zip keeps one name.
func keepName() (string, error) { return "seed.zip", nil }

// seedZip names the zip the storage tests upload.
func seedZip() (string, error) { return "seed.zip", nil }

func newTestRedlock(t *testing.T, tokens ...int64) (*redlockStorage, *scriptedLeaser, *[]string) {
	var mu sync.Mutex
	var logs []string
	lk := &scriptedLeaser{tokens: tokens}
	st := &redlockStorage{l: layout{root: t.TempDir()}, p: pacer{chunk: 16, delay: 0}, locks: lk, keyFn: lockKey,
		logf: func(f string, a ...any) { mu.Lock(); logs = append(logs, fmt.Sprintf(f, a...)); mu.Unlock() }}
	return st, lk, &logs
}

func TestFencedWriteIsRefusedAndLogged(t *testing.T) {
	st, _, logs := newTestRedlock(t, 7, 3)
	ctx := context.Background()
	if err := st.storeZip(ctx, "a1", "seed.zip", "seed.zip", []byte("newer holder"), keepName); err != nil {
		t.Fatal(err)
	}
	err := st.storeZip(ctx, "a1", "seed.zip", "seed.zip", []byte("stale holder"), keepName)
	if !errors.Is(err, errFenced) {
		t.Fatalf("stale write: %v, want a fencing refusal", err)
	}
	b, _ := os.ReadFile(filepath.Join(st.l.zipDir("a1"), "seed.zip"))
	if string(b) != "newer holder" {
		t.Fatalf("zip holds %q after a refused stale write", b)
	}
	if len(*logs) != 1 || !strings.Contains((*logs)[0], "FENCED") || !strings.Contains((*logs)[0], "token 3") {
		t.Fatalf("logs %q: want one FENCED line naming token 3", *logs)
	}
	ents, _ := os.ReadDir(st.l.zipDir("a1"))
	if len(ents) != 1 {
		t.Fatalf("temp file left beside the zip: %v", ents)
	}
	rec, _ := readFence(filepath.Join(st.l.analysisAssets("a1"), fenceFileName))
	if rec != 7 {
		t.Fatalf("fence record %d, want 7", rec)
	}
}

func TestLostLeaseStopsTheWrite(t *testing.T) {
	st, lk, logs := newTestRedlock(t, 1)
	st.hold = time.Minute
	go func() {
		var held *scriptedLease
		err := testenv.Poll(10*time.Second, "the write to hold its lease", func() bool {
			lk.mu.Lock()
			defer lk.mu.Unlock()
			if len(lk.leases) > 0 {
				held = lk.leases[0]
			}
			return held != nil
		})
		if err != nil {
			t.Error(err)
			return
		}
		held.cancel() // the lock is lost while held
	}()
	err := st.storeZip(context.Background(), "a2", "seed.zip", "seed.zip", []byte("data"), keepName)
	if err == nil || !strings.Contains(err.Error(), "lost") {
		t.Fatalf("write under a lost lease: %v, want it stopped", err)
	}
	if _, err := os.Stat(filepath.Join(st.l.zipDir("a2"), "seed.zip")); err == nil {
		t.Fatalf("zip written after the lease was lost")
	}
	if len(*logs) == 0 || !strings.Contains((*logs)[0], "LOST LOCK") {
		t.Fatalf("logs %q: want a LOST LOCK line", *logs)
	}
}

func TestRedlockExtractionReplacesWhole(t *testing.T) {
	st, _, _ := newTestRedlock(t, 1, 2, 3, 4)
	ctx := context.Background()
	write := func(entries map[string]string) []byte {
		return testZipBytes(t, entries)
	}
	if err := st.storeZip(ctx, "a3", "seed.zip", "seed.zip", write(map[string]string{"one.txt": "1", "dir/two.txt": "2"}), keepName); err != nil {
		t.Fatal(err)
	}
	if err := st.initialize(ctx, "a3", seedZip); err != nil {
		t.Fatal(err)
	}
	if err := st.storeZip(ctx, "a3", "seed.zip", "seed.zip", write(map[string]string{"three.txt": "3"}), keepName); err != nil {
		t.Fatal(err)
	}
	if err := st.initialize(ctx, "a3", seedZip); err != nil {
		t.Fatal(err)
	}
	var names []string
	_ = filepath.WalkDir(st.l.extractDir("a3"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !ignoredName(d.Name()) {
			rel, _ := filepath.Rel(st.l.extractDir("a3"), p)
			names = append(names, rel)
		}
		return nil
	})
	if len(names) != 1 || names[0] != "three.txt" {
		t.Fatalf("extraction holds %v, want exactly the second zip's entries", names)
	}
	ents, _ := os.ReadDir(filepath.Dir(st.l.extractDir("a3")))
	if len(ents) != 1 {
		t.Fatalf("left beside the extraction: %v", ents)
	}
}

func TestPlainExtractionSkipsExistingFiles(t *testing.T) {
	// The real app's behaviour kept in modes none and local: a file that exists is not rewritten.
	st := &plainStorage{l: layout{root: t.TempDir()}, p: pacer{chunk: 8}}
	ctx := context.Background()
	if err := st.storeZip(ctx, "a4", "seed.zip", "seed.zip", testZipBytes(t, map[string]string{"x.txt": "from zip"}), keepName); err != nil {
		t.Fatal(err)
	}
	dir := st.l.extractDir("a4")
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, "x.txt"), []byte("partial"), 0o644)
	if err := st.initialize(ctx, "a4", seedZip); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "x.txt"))
	if string(b) != "partial" {
		t.Fatalf("x.txt = %q: the plain extraction must skip existing files", b)
	}
	if exists(filepath.Join(dir, receiptFileName)) {
		t.Fatalf("the real extract_archive leaves no receipt")
	}
}

func TestEntryNameRefusesEscapes(t *testing.T) {
	for _, n := range []string{"../x", "/etc/passwd", "a/../../x"} {
		if _, err := entryName(n); err == nil {
			t.Errorf("entry %q accepted", n)
		}
	}
	if n, err := entryName("scripts/analysis/a.rb"); err != nil || n != filepath.FromSlash("scripts/analysis/a.rb") {
		t.Errorf("good entry: %q %v", n, err)
	}
}

// TestPlainExtractionDoesNotVerifyChecksums: rubyzip 2.3 writes an entry as it reads it; a
// stored entry whose bytes no longer match its checksum is extracted, not refused.
func TestPlainExtractionDoesNotVerifyChecksums(t *testing.T) {
	st := &plainStorage{l: layout{root: t.TempDir()}, p: pacer{chunk: 8}, noRewrite: true}
	z := storedZipBytes(t, 'x')
	i := bytes.Index(z, bytes.Repeat([]byte("x"), 1000))
	copy(z[i:], "torn")
	ctx := context.Background()
	// One extract_archive pass, without the retries that would hide an error.
	path := filepath.Join(t.TempDir(), "seed.zip")
	_ = os.WriteFile(path, z, 0o644)
	ra, _ := openReopener(path)
	defer ra.Close()
	zr, err := zip.NewReader(ra, int64(len(z)))
	if err != nil {
		t.Fatal(err)
	}
	if err := extractEntries(ctx, st.p, byName(zr.File), t.TempDir(), ra); err != nil {
		t.Fatalf("one rubyzip pass over an entry with a wrong checksum: %v, want it written as read", err)
	}
	if err := st.storeZip(ctx, "a5", "seed.zip", "", z, keepName); err != nil {
		t.Fatal(err)
	}
	if err := st.initialize(ctx, "a5", seedZip); err != nil {
		t.Fatalf("extraction of an entry with a wrong checksum: %v, want it written as read", err)
	}
	b, _ := os.ReadFile(filepath.Join(st.l.extractDir("a5"), "b.txt"))
	if !bytes.HasPrefix(b, []byte("torn")) || len(b) != 1000 {
		t.Fatalf("b.txt = %q..., want the torn bytes", b[:min(8, len(b))])
	}
	rl := &redlockStorage{l: layout{root: t.TempDir()}, p: pacer{chunk: 8}, locks: &scriptedLeaser{tokens: []int64{1, 2, 3, 4}}, keyFn: lockKey, logf: t.Logf, noRewrite: true}
	if err := rl.storeZip(ctx, "a5", "seed.zip", "", z, keepName); err != nil {
		t.Fatal(err)
	}
	if err := rl.initialize(ctx, "a5", seedZip); err == nil {
		t.Fatalf("the fixed app extracted an entry whose checksum is wrong")
	}
}
