package judge

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/cli/cmdutil"
)

// TestJudgeCutHistory: a history whose last line was cut by a crash is judged from its whole
// records: stderr says a partial line was ignored, and the verdict is partial (inconclusive,
// exit 2) as for an interrupted run. A malformed line before the last stays an error.
func TestJudgeCutHistory(t *testing.T) {
	dir := t.TempDir()
	hdr := `{"kind":"header","header":{"schema":2,"run":"0badc0de","profile":"openstudio","targets":["http://127.0.0.1:1"],"requests":1,"concurrency":1,"analyses":1,"min_acknowledged":0,"min_contended":0,"started":"2026-12-01T00:00:00Z"}}` + "\n"
	rec := `{"kind":"request","seq":1,"op":"create_project","setup":true,"returned_id":"p-1","status":201,"outcome":"acknowledged","start":"2026-12-01T00:00:00Z","end":"2026-12-01T00:00:00.01Z"}` + "\n"
	judge := func(content string) (map[string]any, string, error) {
		p := filepath.Join(dir, "h.jsonl")
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		f := cmdutil.TestFactory()
		cmd := NewCmdJudge(f, nil)
		cmd.SetArgs([]string{"--history", p, "-o", "json"})
		cmd.SetOut(f.IO.Out)
		cmd.SetErr(f.IO.ErrOut)
		cmd.SilenceUsage = true
		err := cmd.Execute()
		var rep map[string]any
		_ = json.NewDecoder(f.IO.Out.(*bytes.Buffer)).Decode(&rep) // the report, before cobra's usage
		return rep, f.IO.ErrOut.(*bytes.Buffer).String(), err
	}
	rep, errOut, err := judge(hdr + rec + rec[:50])
	if cmdutil.ExitCode(err) != 2 || !strings.Contains(errOut, "history ends mid-record: 1 partial line ignored") || rep["partial"] != true {
		t.Fatalf("cut: exit %d (%v), partial %v, stderr %s", cmdutil.ExitCode(err), err, rep["partial"], errOut)
	}
	if _, _, err := judge(hdr + rec[:50] + "\n" + rec); err == nil || !strings.Contains(err.Error(), "history line 2") {
		t.Fatalf("malformed middle line: %v", err)
	}
}
