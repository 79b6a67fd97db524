package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/sandbox"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.CleanupBinary()
	os.Exit(code)
}

// Shape of one race round: few analyses, many writers each, so that writes overlap.
const (
	raceAnalyses = 10
	raceUploads  = 6
	raceStarts   = 4
	raceRounds   = 5
	// raceBackgroundInterval makes idle workers look for jobs often, so that extractions overlap
	// the uploads still under way (the real 5 s would let most uploads finish first).
	raceBackgroundInterval = "10ms"
)

// findRace runs up to raceRounds rounds against the sandbox and returns the findings of the
// first round that produced any.
func findRace(t *testing.T, sb *sandboxenv.Sandbox) []finding {
	t.Helper()
	for round := range raceRounds {
		ids := mustCreate(t, sb.Replicas[0], raceAnalyses)
		sent, stats := raceRound(t, sb.Replicas, ids, raceUploads, raceStarts, nil)
		waitIdle(t, sb.Replicas)
		fs := checkState(t, sb.StateDir, sent)
		t.Logf("round %d (%v): uploads %d/%d acknowledged, starts %d/%d code 200, %d of %d analyses extracted, %d findings", round, stats.elapsed.Round(time.Millisecond),
			stats.uploadsOK, stats.uploads, stats.startsOK, stats.starts, extracted(t, sb.Replicas[0], ids), len(ids), len(fs))
		if len(fs) > 0 {
			return fs
		}
	}
	return nil
}

// assertNoRace runs rounds and fails on any finding; it also requires most writes acknowledged,
// so that a server refusing everything does not pass.
func assertNoRace(t *testing.T, sb *sandboxenv.Sandbox, rounds int, during func(round int)) []roundStats {
	t.Helper()
	var all []roundStats
	for round := range rounds {
		ids := mustCreate(t, sb.Replicas[0], raceAnalyses)
		var hook func()
		if during != nil {
			hook = func() { during(round) }
		}
		sent, stats := raceRound(t, sb.Replicas, ids, raceUploads, raceStarts, hook)
		// The extractions run in the replicas' workers after the starts were answered.
		waitIdle(t, sb.Replicas)
		fs := checkState(t, sb.StateDir, sent)
		n := extracted(t, sb.Replicas[0], ids)
		t.Logf("round %d (%v): uploads %d/%d acknowledged, starts %d/%d code 200, %d of %d analyses extracted, %d findings", round, stats.elapsed.Round(time.Millisecond),
			stats.uploadsOK, stats.uploads, stats.startsOK, stats.starts, n, len(ids), len(fs))
		for _, f := range fs {
			t.Errorf("race: %s", f)
		}
		if stats.uploadsOK*2 < stats.uploads {
			t.Errorf("only %d of %d uploads acknowledged: the round proves nothing", stats.uploadsOK, stats.uploads)
		}
		if stats.startsOK == 0 || n == 0 {
			t.Errorf("%d starts acknowledged, %d analyses extracted: extraction was never exercised", stats.startsOK, n)
		}
		all = append(all, stats)
	}
	return all
}

// requireRace starts three replicas with locking and fails unless findRace sees a race there;
// why says what its absence means.
func requireRace(t *testing.T, locking, why string) {
	t.Helper()
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", locking, "--background-interval", raceBackgroundInterval)
	fs := findRace(t, sb)
	if len(fs) == 0 {
		t.Fatalf("no race in %d rounds with --locking %s at 3 replicas: %s", raceRounds, locking, why)
	}
	t.Logf("first finding: %s (%d in all)", fs[0], len(fs))
}

func TestLockingNoneRacesAtThreeReplicas(t *testing.T) {
	requireRace(t, "none", "the sandbox no longer reproduces the real app")
}

func TestLockingLocal(t *testing.T) {
	t.Run("one replica is safe", func(t *testing.T) {
		sb := sandboxenv.Start(t, "--replicas", "1", "--locking", "local", "--background-interval", raceBackgroundInterval)
		assertNoRace(t, sb, 2, nil)
	})
	t.Run("three replicas race", func(t *testing.T) {
		requireRace(t, "local", "a process-local mutex must not protect across replicas")
	})
}

func TestLockingRedlockThreeReplicas(t *testing.T) {
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "redlock", "--background-interval", raceBackgroundInterval)
	if len(sb.Redis) != 1 {
		t.Fatalf("up started %d Redis masters, want 1: %v", len(sb.Redis), sb.Redis)
	}
	assertNoRace(t, sb, 2, nil)
}

func TestLockingRedlockSurvivesLosingOneOfThreeMasters(t *testing.T) {
	masters := testenv.StartRedisMasters(t, 3)
	args := []string{"--replicas", "3", "--locking", "redlock", "--background-interval", raceBackgroundInterval}
	for _, u := range testenv.URLs(masters) {
		args = append(args, "--redis", u)
	}
	sb := sandboxenv.Start(t, args...)
	if len(sb.Redis) != 3 {
		t.Fatalf("sandbox uses %d masters, want the 3 given: %v", len(sb.Redis), sb.Redis)
	}
	var killedAfter time.Duration
	stats := assertNoRace(t, sb, 2, func(round int) {
		if round == 0 {
			began := time.Now()
			time.Sleep(150 * time.Millisecond)
			masters[1].Kill()
			killedAfter = time.Since(began)
		}
	})
	if len(stats) > 0 && stats[0].elapsed <= killedAfter {
		t.Errorf("round 0 ended %v in, before the master was killed at %v: the kill was not mid-run", stats[0].elapsed, killedAfter)
	}
	if exited, err := sb.Exited(); exited {
		t.Fatalf("sandbox exited after a master was killed: %v", err)
	}
}

// TestConcurrentStartsAcrossReplicas sends many starts of one analysis at once through three
// replica processes: find-or-create of the jobs (shared only through the state directory) must
// leave well-formed jobs, each at its own index, and every start's InitializeAnalysis must run.
func TestConcurrentStartsAcrossReplicas(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		sb := sandboxenv.Start(t, "--replicas", "3", "--locking", string(mode), "--background-interval", raceBackgroundInterval)
		id := mustCreate(t, sb.Replicas[0], 1)[0]
		if st, err := upload(context.Background(), sb.Replicas[0], id, newTestZip(t)); err != nil || st != 201 {
			t.Fatalf("upload: %d %v", st, err)
		}
		const starts = 30
		var wg sync.WaitGroup
		for i := range starts {
			wg.Go(func() {
				if code, err := start(context.Background(), sb.URL(i, ""), id); err != nil || code != 200 {
					t.Errorf("start %d: code %d %v", i, code, err)
				}
			})
		}
		wg.Wait()
		waitIdle(t, sb.Replicas)
		jobs := statusJobs(t, sb.Replicas[1], id)
		seen := map[float64]bool{}
		for _, j := range jobs {
			idx, _ := j["index"].(float64)
			if seen[idx] || idx < 0 || idx >= starts || j["status"] != "started" || j["analysis_type"] != "batch_run" {
				t.Errorf("job %v: want a started batch_run job at an index of its own below %d", j, starts)
			}
			seen[idx] = true
		}
		var performed int64
		for _, r := range sb.Replicas {
			w := workerStatus(t, r)
			performed += w.Performed + w.Failed
		}
		if len(jobs) == 0 || len(jobs) > starts || performed != starts {
			t.Errorf("%d jobs, %d InitializeAnalysis jobs run for %d starts", len(jobs), performed, starts)
		}
		ents, _ := os.ReadDir(filepath.Join(sb.StateDir, "db/jobs", id))
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".osctl-tmp") {
				t.Errorf("temporary job record %s left", e.Name())
			}
		}
		t.Logf("%d concurrent starts made %d jobs", starts, len(jobs))
	})
}
