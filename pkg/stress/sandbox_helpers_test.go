package stress_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/internal/testenv/stressrun"
	"github.com/osctl/osctl/pkg/sandbox"
	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/openstudio"
	"github.com/osctl/osctl/pkg/stress/report"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// These tests run stress.Run in this process against sandbox replicas served in this process too
// (sandboxenv.Serve): what internal/cli/stress checked through the osctl binary where the binary
// itself was not what it checked. Exit codes are the report's (report.ExitCode), as osctl stress
// turns them.

// serve starts an in-process sandbox of replicas as `osctl sandbox up` would with its defaults,
// changed by set.
func serve(t *testing.T, replicas int, set func(*sandbox.Config)) *sandboxenv.InProcess {
	t.Helper()
	cfg := sandbox.DefaultConfig()
	if set != nil {
		set(&cfg)
	}
	return sandboxenv.Serve(t, replicas, cfg)
}

// sandboxRun is one stress.Run against an in-process sandbox: its report and history file.
type sandboxRun struct {
	rep  *report.Report
	hist string
}

// Code is the exit code osctl stress gives the run.
func (r sandboxRun) Code() int { return r.rep.ExitCode() }

// runOn runs osctl stress's defaults (stress.DefaultConfig) changed by set against every replica
// of sb, with the state read from its directory for the openstudio profile (as --state-dir does)
// and the history written to a file.
func runOn(t *testing.T, sb *sandboxenv.InProcess, set func(*stress.Config)) sandboxRun {
	t.Helper()
	return runWith(t, sandboxConfig(t, sb.Replicas, set), stress.Deps{}, sb.StateDir)
}

// sandboxConfig is osctl stress's defaults (stress.DefaultConfig) against every replica, changed
// by set: the one place these tests build a Config.
func sandboxConfig(t *testing.T, replicas []string, set func(*stress.Config)) stress.Config {
	t.Helper()
	cfg := stress.DefaultConfig()
	for _, r := range replicas {
		u, err := url.Parse(r)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Targets = append(cfg.Targets, u)
	}
	cfg.Version = "test"
	if set != nil {
		set(&cfg)
	}
	return cfg
}

// runWith runs cfg with d, the state read from stateDir for the openstudio profile (as
// --state-dir does) and the history written to a file.
func runWith(t *testing.T, cfg stress.Config, d stress.Deps, stateDir string) sandboxRun {
	t.Helper()
	hist := filepath.Join(t.TempDir(), "history.jsonl")
	fh, err := os.Create(hist)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	d.History = fh
	if cfg.Kind().Files {
		d.State = snapshot.Local{Root: stateDir}
	}
	rep, err := stress.Run(context.Background(), cfg, d)
	if err != nil {
		t.Fatalf("stress.Run: %v", err)
	}
	return sandboxRun{rep: rep, hist: hist}
}

// openStudio changes c's openstudio options (the defaults' when it has none).
func openStudio(c *stress.Config, set func(*openstudio.Options)) {
	o := openstudio.OptionsOf(*c)
	set(&o)
	c.Options = o
}

// judgeSaved is `osctl stress judge --history hist [--state-dir dir]`: the saved run's report
// again, offline.
func judgeSaved(t *testing.T, hist, dir string) *report.Report {
	t.Helper()
	s, err := stress.ReadSaved(hist)
	if err != nil {
		t.Fatal(err)
	}
	var r snapshot.Reader
	if dir != "" {
		r = snapshot.Local{Root: dir}
	}
	rep, err := s.Judge(context.Background(), r, stress.JudgeOptions{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// result is the run as stressrun checks a run of the binary: the exit code osctl stress gives it
// and its report.
func (r sandboxRun) result() stressrun.Result {
	res := stressrun.Result{Rep: *r.rep}
	res.Code = r.Code()
	return res
}

// requireRaces fails unless the run found races (exit 1) with findings of every kind in kinds,
// each finding with its evidence (stressrun.RequireRaces).
func requireRaces(t *testing.T, r sandboxRun, kinds ...string) {
	t.Helper()
	stressrun.RequireRaces(t, r.result(), kinds...)
}

// requireClean fails unless the run is clean and conclusive (exit 0) and whole
// (stressrun.RequireClean).
func requireClean(t *testing.T, r sandboxRun) {
	t.Helper()
	stressrun.RequireClean(t, r.result())
}

// readHistory reads a history file back.
func readHistory(t *testing.T, path string) *history.History {
	t.Helper()
	h, err := history.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
