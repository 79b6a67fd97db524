package stress

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// TestJudgeSavedReadsTheRunsDirectories: the offline judge of a saved openstudio run reads the
// directories its history names from a real directory and finds the torn zip there; without a
// reader the files are not judged and the verdict says so; a clean zip gives a clean verdict.
func TestJudgeSavedReadsTheRunsDirectories(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("testdata", "torn.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	const analysis = "0badc0de-000a-4000-8000-000000000000"
	vol := t.TempDir()
	zip := filepath.Join(vol, "server", "assets", "analyses", analysis, "original", "osctl-0badc0de.zip")
	if err := os.MkdirAll(filepath.Dir(zip), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(zip, []byte("PK torn halfway\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rep, err := JudgeSaved(ctx, h, snapshot.Local{Root: vol}, JudgeOptions{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != "races" || rep.FindingCounts["torn"] != 1 || len(rep.Findings) != 1 || rep.Findings[0].Kind != "torn" {
		t.Fatalf("verdict %s, counts %v, want races with 1 torn", rep.Verdict, rep.FindingCounts)
	}

	rep, err = JudgeSaved(ctx, h, nil, JudgeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != "inconclusive" || !strings.Contains(strings.Join(rep.Reasons, "; "), "the files were not read") {
		t.Fatalf("without a reader: %s %v, want inconclusive because the files were not read", rep.Verdict, rep.Reasons)
	}

	// A reader that fails is an error, not a verdict.
	if _, err := JudgeSaved(ctx, h, failingReader{}, JudgeOptions{}); err == nil || !strings.Contains(err.Error(), "reading the state") {
		t.Fatalf("a failing reader gave %v", err)
	}
}

type failingReader struct{}

func (failingReader) Read(context.Context, []string) (*snapshot.State, error) {
	return nil, os.ErrPermission
}

// recordingReader reads through a real snapshot.Local and keeps the directories it was asked for.
type recordingReader struct {
	snapshot.Local
	asked *[]string
}

func (r recordingReader) Read(ctx context.Context, dirs []string) (*snapshot.State, error) {
	*r.asked = append(*r.asked, dirs...)
	return r.Local.Read(ctx, dirs)
}

// TestJudgeSavedOpensNothingOutsideTheStateDir: a history whose analysis id is a path ("../../x",
// or one that climbs past the volume root, where a torn zip waits) has nothing outside the state
// directory read: the request is left out of the verdict, which says why and is not clean, and
// the torn zip outside is never judged.
func TestJudgeSavedOpensNothingOutsideTheStateDir(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "torn.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	vol := filepath.Join(base, "vol")
	for _, id := range []string{"../../x", "../../../../x", "/x"} {
		h, err := history.Read(strings.NewReader(strings.ReplaceAll(string(raw), "0badc0de-000a-4000-8000-000000000000", id)))
		if err != nil {
			t.Fatal(err)
		}
		// Where the id would lead, from each of the run's directories: a torn zip.
		for _, d := range []string{filepath.Join(vol, "server", "assets", "analyses", id), filepath.Join(vol, "server", "analyses", id), id} {
			zip := filepath.Join(d, "original", "osctl-0badc0de.zip")
			if !strings.HasPrefix(filepath.Clean(zip), base) {
				continue // never write outside the test's own directory
			}
			if err := os.MkdirAll(filepath.Dir(zip), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(zip, []byte("PK torn halfway\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var asked []string
		rep, err := JudgeSaved(context.Background(), h, recordingReader{snapshot.Local{Root: vol}, &asked}, JudgeOptions{})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		for _, d := range asked {
			if strings.Contains(d, "..") || strings.HasPrefix(d, "/") {
				t.Errorf("%s: read %q", id, d)
			}
		}
		reasons := strings.Join(rep.Reasons, "; ")
		if rep.Verdict != "inconclusive" || len(rep.Findings) != 0 || !strings.Contains(reasons, "left out of the verdict, its files not read: upload #3: id \""+id+"\" is not a plain name") {
			t.Errorf("%s: %s %v %v", id, rep.Verdict, rep.Findings, rep.Reasons)
		}
	}
	// The reader itself refuses a directory that climbs out of its root.
	if _, err := (snapshot.Local{Root: vol}).Read(context.Background(), []string{"server/analyses/../../../x"}); err == nil || !strings.Contains(err.Error(), "not a path inside the state directory") {
		t.Fatalf("Local.Read of a climbing dir: %v", err)
	}
}
