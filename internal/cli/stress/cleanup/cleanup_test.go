package cleanup

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

func TestCleanupValidation(t *testing.T) {
	f := cmdutil.TestFactory()
	for _, args := range [][]string{{"--run", "../etc", "--state-dir", "/tmp"}, {"--run", "0badc0de"}} {
		cmd := NewCmdCleanup(f, func(context.Context, *CleanupOptions) error { return nil })
		cmd.SetArgs(args)
		if err := cmd.Execute(); err == nil || cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// TestCleanupHistoryUsage: --history takes the place of --run and --state-dir, and knows the
// jobs profile only.
func TestCleanupHistoryUsage(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, recs ...history.Record) string {
		p := filepath.Join(dir, name)
		fh, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		w := history.NewWriter(fh)
		for i := range recs {
			_ = w.Write(&recs[i])
		}
		_ = w.Flush()
		fh.Close()
		return p
	}
	osHist := write("os.jsonl", history.Record{Kind: history.KindHeader, Header: &history.Header{Schema: history.SchemaVersion, Run: "0badc0de", Profile: "openstudio"}})
	nonce := profile.Nonce("0badc0de", 1)
	id, _ := profile.JobIDFromKey(profile.DefaultSubmissionSource, nonce)
	jobs := write("jobs.jsonl", history.Record{Kind: history.KindHeader, Header: &history.Header{Schema: history.SchemaVersion, Run: "0badc0de", Profile: "jobs", Targets: []string{"http://127.0.0.1:1"}}},
		history.Record{Kind: history.KindRequest, Seq: 1, Op: history.OpSubmitJob, Target: "http://127.0.0.1:1", Nonce: nonce, Returned: id, Outcome: history.Acknowledged})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--history", osHist}, "pass --state-dir DIR"},
		{[]string{"--history", jobs, "--state-dir", dir}, "leave out --state-dir"},
		{[]string{"--history", jobs, "--run", "0badc0de"}, "leave out --run"},
		{[]string{"--history", jobs, "--header", "bad"}, "--header"},
		{[]string{"--history", filepath.Join(dir, "none.jsonl")}, "cannot read --history"},
	} {
		f := cmdutil.TestFactory()
		cmd := NewCmdCleanup(f, nil)
		cmd.SetArgs(c.args)
		cmd.SetOut(f.IO.Out)
		cmd.SetErr(f.IO.ErrOut)
		if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), c.want) || cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: %v, want exit 2 about %s", c.args, err, c.want)
		}
	}
	f := cmdutil.TestFactory()
	cmd := NewCmdCleanup(f, nil)
	cmd.SetArgs([]string{"--history", jobs, "--dry-run"})
	out := f.IO.Out.(*bytes.Buffer)
	if err := cmd.Execute(); err != nil || !strings.Contains(out.String(), "would delete job "+id+" on http://127.0.0.1:1") {
		t.Fatalf("dry run: %v\n%s", err, out)
	}
}
