package files

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tree makes root/<name>/analysis_zip.lock for every name, aged by age, with a receipt for
// those in done.
func tree(t *testing.T, age time.Duration, names []string, done map[string]bool) string {
	t.Helper()
	root := t.TempDir()
	old := time.Now().Add(-age)
	for _, n := range names {
		dir := filepath.Join(root, "analyses", n)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		lock := filepath.Join(dir, "analysis_zip.lock")
		if err := os.WriteFile(lock, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(lock, old, old); err != nil {
			t.Fatal(err)
		}
		if done[n] {
			if err := os.WriteFile(filepath.Join(dir, "analysis_zip.receipt"), []byte("ok"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

func find(t *testing.T, o Options) []File {
	t.Helper()
	var out []File
	warnings, err := Find(context.Background(), o, func(f File) error { out = append(out, f); return nil })
	if err != nil || len(warnings) != 0 {
		t.Fatalf("Find: %v %v", err, warnings)
	}
	return out
}

// flock takes an exclusive flock on path through its own open file, as OpenStudio does, until
// the test ends.
func flock(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
}

func TestFindAndRemove(t *testing.T) {
	ctx := context.Background()
	root := tree(t, time.Hour, []string{"a", "b", "c", "d", "e"}, map[string]bool{"b": true})
	lock := func(n string) string { return filepath.Join(root, "analyses", n, "analysis_zip.lock") }
	flock(t, lock("c"))
	files := find(t, Options{Root: root})
	byPath := map[string]File{}
	for _, f := range files {
		byPath[f.Path] = f
	}
	if len(files) != 4 {
		t.Fatalf("want a, c, d, e (b has its receipt), got %v", files)
	}
	if byPath[lock("a")].Status != StatusStale || byPath[lock("c")].Status != StatusHeld {
		t.Fatalf("statuses: %+v", files)
	}
	if a := byPath[lock("a")]; a.Age() < 59*time.Minute || a.Receipt != filepath.Join(root, "analyses", "a", "analysis_zip.receipt") {
		t.Errorf("a: %+v", a)
	}
	// Between listing and removal: d is written to, e is flocked.
	if err := os.WriteFile(lock("d"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	flock(t, lock("e"))
	// Dry run removes nothing.
	if r := Remove(ctx, byPath[lock("a")], RemoveOptions{DryRun: true}); r.Result != ResultWouldRemove {
		t.Fatalf("dry run: %+v", r)
	}
	if _, err := os.Stat(lock("a")); err != nil {
		t.Fatal("dry run removed a")
	}
	want := map[string]string{"a": ResultRemoved, "c": ResultNotStale, "d": ResultChanged, "e": ResultFlocked}
	for n, res := range want {
		r := Remove(ctx, byPath[lock(n)], stopped)
		if r.Result != res {
			t.Errorf("%s: %+v, want %s", n, r, res)
		}
		_, err := os.Stat(lock(n))
		if exists := err == nil; exists != (res != ResultRemoved) {
			t.Errorf("%s: exists=%v after %s", n, exists, r.Result)
		}
	}
	if r := Remove(ctx, byPath[lock("a")], stopped); r.Result != ResultGone {
		t.Errorf("removing twice: %+v", r)
	}
}

func TestRemoveReplacedOrReceiptAppeared(t *testing.T) {
	ctx := context.Background()
	root := tree(t, time.Hour, []string{"r", "s"}, nil)
	files := find(t, Options{Root: root})
	if len(files) != 2 {
		t.Fatalf("%v", files)
	}
	for _, f := range files {
		switch filepath.Base(filepath.Dir(f.Path)) {
		case "r": // replaced by a new file with the same size and mtime
			mt := f.ModTime
			if err := os.Remove(f.Path); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f.Path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(f.Path, mt, mt); err != nil {
				t.Fatal(err)
			}
			if r := Remove(ctx, f, stopped); r.Result != ResultChanged {
				t.Errorf("replaced: %+v", r)
			}
		case "s":
			if err := os.WriteFile(f.Receipt, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if r := Remove(ctx, f, stopped); r.Result != ResultReceiptAppeared {
				t.Errorf("receipt appeared: %+v", r)
			}
		}
		if _, err := os.Stat(f.Path); err != nil {
			t.Errorf("%s removed", f.Path)
		}
	}
}

func TestMinAgeAndNames(t *testing.T) {
	root := tree(t, time.Minute, []string{"young"}, nil)
	if got := find(t, Options{Root: root}); len(got) != 0 {
		t.Errorf("a 1-minute-old lock is stale under the 10m default: %v", got)
	}
	if got := find(t, Options{Root: root, MinAge: 30 * time.Second}); len(got) != 1 {
		t.Errorf("min age 30s: %v", got)
	}
	other := filepath.Join(root, "x.lock")
	if err := os.WriteFile(other, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := find(t, Options{Root: root, MinAge: -1, Names: []string{"*.lock"}}); len(got) != 2 {
		t.Errorf("*.lock: %v", got)
	}
	if _, err := Find(context.Background(), Options{Root: filepath.Join(root, "nope")}, func(File) error { return nil }); err == nil {
		t.Error("missing root: no error")
	}
	if _, err := Find(context.Background(), Options{Root: root, Names: []string{"["}}, func(File) error { return nil }); err == nil {
		t.Error("bad glob: no error")
	}
}

// stopped is what the caller of Remove says when every extractor is stopped.
var stopped = RemoveOptions{ExtractorsStopped: true}

// TestRemoveRefusesWhileExtractorsMayRun: without the word that the extractors are stopped,
// nothing is removed (a dry run still checks); and a lock file that another process on this
// machine has open but has not flocked (an extractor between File.open and flock) is never
// removed, even then.
func TestRemoveRefusesWhileExtractorsMayRun(t *testing.T) {
	ctx := context.Background()
	root := tree(t, time.Hour, []string{"a"}, nil)
	path := filepath.Join(root, "analyses", "a", "analysis_zip.lock")
	f := find(t, Options{Root: root})[0]
	if r := Remove(ctx, f, RemoveOptions{}); r.Result != ResultRefused || !strings.Contains(r.Detail, "never checks that the path") {
		t.Fatalf("without ExtractorsStopped: %+v", r)
	}
	if r := Remove(ctx, f, RemoveOptions{DryRun: true}); r.Result != ResultWouldRemove {
		t.Fatalf("dry run: %+v", r)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("removed without ExtractorsStopped: %v", err)
	}

	fd, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	opener := exec.Command("sleep", "600")
	opener.ExtraFiles = []*os.File{fd}
	if err := opener.Start(); err != nil {
		t.Fatal(err)
	}
	fd.Close()
	t.Cleanup(func() { _ = opener.Process.Kill(); _ = opener.Wait() })
	r := Remove(ctx, f, stopped)
	if r.Result != ResultOpen || !strings.Contains(r.Detail, strconv.Itoa(opener.Process.Pid)) {
		t.Fatalf("open in pid %d: %+v", opener.Process.Pid, r)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("removed while open: %v", err)
	}
	_ = opener.Process.Kill()
	_ = opener.Wait()
	if r := Remove(ctx, f, stopped); r.Result != ResultRemoved {
		t.Fatalf("once closed: %+v", r)
	}
}
