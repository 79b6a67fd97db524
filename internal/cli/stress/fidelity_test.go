package stress

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// The runs of the issue "osctl stress against the real OpenStudio Server": a target that behaves
// as the real server does (strict models, 200 null for missing records, a start that only queues
// a job for a worker that polls every 5 s), three processes over one directory, default flags.
var fidelityArgs = []string{"--profile", "openstudio", "--requests", "3000", "--concurrency", "1000", "--analyses", "30", "--allow-start"}

// TestRealServerRacy: the zip written in place, skip-existing extraction, no lock: races on the
// seed zip and on the extraction.
func TestRealServerRacy(t *testing.T) {
	if testing.Short() {
		t.Skip("a minute of settle: not in -short")
	}
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "none")
	r := stress(t, sb, fidelityArgs...)
	requireRaces(t, r)
	var onZip, onExtraction bool
	for _, f := range r.rep.Findings {
		if f.Kind != detect.Torn && f.Kind != detect.Mixed {
			continue
		}
		for _, p := range f.Paths {
			onZip = onZip || strings.HasPrefix(p, "server/assets/analyses/")
			onExtraction = onExtraction || strings.HasPrefix(p, "server/analyses/")
		}
	}
	if !onZip || !onExtraction {
		var sample []string
		for i, f := range r.rep.Findings {
			if i == 3 {
				break
			}
			sample = append(sample, fmt.Sprintf("%s %s %v: expected %s, got %s", f.Kind, f.Object, f.Paths, f.Expected, f.Got))
		}
		t.Fatalf("want torn or mixed findings on the seed zip (%v) and on the extraction (%v): %v; first: %s", onZip, onExtraction, r.rep.FindingCounts, strings.Join(sample, "; "))
	}
}

// TestRealServerCorrectTwin: atomic writes, the extraction swapped in whole under the lock, the
// same sort-rewrite of unsorted zips: clean, after data points, result files and queued
// extractions were really exercised.
func TestRealServerCorrectTwin(t *testing.T) {
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "redlock")
	r := stress(t, sb, fidelityArgs...)
	requireClean(t, r)
	acked := map[string]int{}
	for _, op := range r.rep.Operations {
		acked[op.Op] = op.Acknowledged
	}
	if acked["data_point"] < 50 || acked["upload_file"] < 50 || acked["upload"] == 0 || acked["start"] == 0 {
		t.Errorf("operations acknowledged %v: want at least 50 data points and 50 result files", acked)
	}
	if x := r.rep.Extractions; x == nil || x.Ran < 5 || x.Judged == 0 {
		t.Errorf("extractions %+v: want at least 5 queued extractions that ran", r.rep.Extractions)
	}
}

// TestRealServerLossyTwin: 201 to some analysis and data point creates that are never stored;
// reads answer as the real server does. Lost findings name the acknowledged records that are
// gone, analyses among them (read back as 200 {"analysis":null}).
func TestRealServerLossyTwin(t *testing.T) {
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "redlock", "--drop-creates", "0.2")
	hist := filepath.Join(t.TempDir(), "history.jsonl")
	// 60 analyses: the chance that the hash drops none of them is 0.8^60 (1e-6; at 30 it was 1e-3).
	r := stress(t, sb, append(fidelityArgs, "--analyses", "60", "--history", hist)...)
	requireRaces(t, r, detect.Lost)
	fh, err := os.Open(hist)
	if err != nil {
		t.Fatal(err)
	}
	h, err := history.Read(fh)
	fh.Close()
	if err != nil {
		t.Fatal(err)
	}
	ackedCreate := map[string]bool{}
	for _, rec := range h.Records {
		if rec.Kind == history.KindRequest && (rec.Op == history.OpCreateAnalysis || rec.Op == history.OpCreateDataPoint) && rec.Applied() {
			ackedCreate[rec.ID] = true
		}
	}
	kinds := map[string]int{}
	for _, f := range r.rep.Findings {
		if f.Kind != detect.Lost || len(f.Paths) == 0 || !strings.HasSuffix(f.Paths[0], ".json") {
			continue
		}
		if !ackedCreate[f.Object] {
			t.Errorf("lost record %s was not an acknowledged create", f.Object)
		}
		switch {
		case strings.HasPrefix(f.Paths[0], "/analyses/"):
			kinds["analysis"]++
			if !strings.Contains(f.Got, `200 {"analysis":null}`) {
				t.Errorf("a lost analysis must say what the read answered: %q", f.Got)
			}
		case strings.HasPrefix(f.Paths[0], "/data_points/"):
			kinds["data_point"]++
		}
	}
	t.Logf("lost %v", kinds)
	if kinds["analysis"] == 0 || kinds["data_point"] == 0 {
		var reads []string
		for _, rec := range h.Records {
			if rec.Kind == history.KindReadback && rec.Op == "analysis" {
				reads = append(reads, fmt.Sprintf("%s: %d found=%v %s %s", rec.ID, rec.Status, rec.Found, rec.Error, rec.Body))
			}
		}
		t.Fatalf("want lost analyses and data points, got %v (%v); analysis read-backs: %s", kinds, r.rep.FindingCounts, strings.Join(reads, "; "))
	}
}
