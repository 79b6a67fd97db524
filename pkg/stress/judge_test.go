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
