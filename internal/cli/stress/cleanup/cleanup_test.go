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

// TestCleanupCutHistoryAndLeftAlone: a history whose last line was cut is cleaned up from its
// whole records, with a warning on stderr; a record the run cannot be shown to have made is
// listed as left alone, and the exit code is 1; a malformed secret header is not echoed.
func TestCleanupCutHistoryAndLeftAlone(t *testing.T) {
	dir := t.TempDir()
	nonce := profile.Nonce("0badc0de", 1)
	id, _ := profile.JobIDFromKey(profile.DefaultSubmissionSource, nonce)
	hdr := `{"kind":"header","header":{"schema":2,"run":"0badc0de","profile":"jobs","targets":["http://127.0.0.1:1"],"requests":2,"concurrency":1,"min_acknowledged":0,"min_contended":0,"started":"2026-01-01T00:00:00Z"}}` + "\n"
	rec := `{"kind":"request","seq":1,"op":"submit_job","target":"http://127.0.0.1:1","nonce":"` + nonce + `","returned_id":"` + id + `","outcome":"acknowledged"}` + "\n"
	foreign := `{"kind":"request","seq":2,"op":"submit_job","target":"http://10.0.0.9:8000","nonce":"osctl-0badc0de-00000002","returned_id":"5ca1ab1e0001","outcome":"acknowledged"}` + "\n"
	run := func(args ...string) (string, string, error) {
		f := cmdutil.TestFactory()
		cmd := NewCmdCleanup(f, nil)
		cmd.SetArgs(args)
		cmd.SetOut(f.IO.Out)
		cmd.SetErr(f.IO.ErrOut)
		err := cmd.Execute()
		return f.IO.Out.(*bytes.Buffer).String(), f.IO.ErrOut.(*bytes.Buffer).String(), err
	}
	cut := filepath.Join(dir, "cut.jsonl")
	if err := os.WriteFile(cut, []byte(hdr+rec+foreign[:40]), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := run("--history", cut, "--dry-run")
	if err != nil || !strings.Contains(errOut, "warning: "+cut+": history ends mid-record: 1 partial line ignored") || !strings.Contains(out, "would delete job "+id) {
		t.Fatalf("cut history: %v\nstdout %s\nstderr %s", err, out, errOut)
	}
	whole := filepath.Join(dir, "whole.jsonl")
	if err := os.WriteFile(whole, []byte(hdr+rec+foreign), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err = run("--history", whole, "--dry-run")
	if cmdutil.ExitCode(err) != 1 || strings.Contains(errOut, "mid-record") || !strings.Contains(out, "left alone job 5ca1ab1e0001 on http://10.0.0.9:8000: its replica http://10.0.0.9:8000 is not among the run's targets") {
		t.Fatalf("left alone: exit %d (%v)\nstdout %s\nstderr %s", cmdutil.ExitCode(err), err, out, errOut)
	}
	_, _, err = run("--history", whole, "--dry-run", "--header", "X-ELB-API-Token=hunter2-s3cr3t")
	if err == nil || cmdutil.ExitCode(err) != 2 || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "--header #1: use 'Name: value'") {
		t.Fatalf("malformed header: %v", err)
	}
}

// TestCleanupRunLeavesAUUIDNamedAnalysisAlone: --run 7c0f5a2e removes its own analysis
// directory and not the one named by a uuid whose first group is the run id.
func TestCleanupRunLeavesAUUIDNamedAnalysisAlone(t *testing.T) {
	root := t.TempDir()
	own := filepath.Join(root, "server", "analyses", profile.AnalysisID("7c0f5a2e", 0))
	foreign := filepath.Join(root, "server", "analyses", "7c0f5a2e-3c1d-4b8e-9a51-0d6f2b7e9c11")
	for _, d := range []string{own, foreign} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f := cmdutil.TestFactory()
	cmd := NewCmdCleanup(f, nil)
	cmd.SetArgs([]string{"--run", "7c0f5a2e", "--state-dir", root, "--yes"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(own); err == nil {
		t.Error("the run's own analysis directory is still there")
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Errorf("the uuid-named analysis was removed: %v", err)
	}
	if out := f.IO.Out.(*bytes.Buffer).String(); !strings.Contains(out, "run 7c0f5a2e: removed 1 directories (0 files)") {
		t.Errorf("output: %s", out)
	}
}
