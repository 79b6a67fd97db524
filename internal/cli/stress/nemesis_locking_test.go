package stress

import (
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/internal/testenv/stressrun"
	"github.com/osctl/osctl/pkg/nemesis"
)

// Both sides of the lock debate (docs/lock-fencing.md) on three sandbox replicas: a Redlock lease
// with fencing and atomic writes (redlock) against the lease alone, as redlock-rb gives it
// (redlock-nofence), each with a replica paused past the lock's TTL.

// fenceTTL is the lock TTL of these sandboxes; fencePause outlasts it, so that a replica paused
// while it holds a lease wakes after another replica took the lock.
const (
	fenceTTL   = 2 * time.Second
	fencePause = "4s"
)

// fenceSandbox starts three replicas with locking and the pacing of docs/lock-fencing.md:
// writes of 256-byte pieces 5 ms apart (an upload or an extraction holds its lock for a few
// hundred milliseconds, so a pause lands inside one), and workers that look for jobs every
// 10 ms (extractions overlap the uploads).
func fenceSandbox(t *testing.T, locking string, extra ...string) *sandboxenv.Sandbox {
	t.Helper()
	return sandboxenv.Start(t, append([]string{"--replicas", "3", "--locking", locking, "--lock-ttl", fenceTTL.String(),
		"--background-interval", "10ms", "--write-delay", "5ms", "--upload-chunk", "256"}, extra...)...)
}

// fenceLoad is the load of docs/lock-fencing.md: one request in flight per analysis, so that
// the workers' first extractions (the only ones that write) are under way, rarely waiting for
// their lock, when a replica is paused.
var fenceLoad = []string{"--requests", "1500", "--concurrency", "60", "--analyses", "60", "--settle-quiet", "5s",
	"--mix", "upload=5,start=3,data_point=1,upload_file=1"}

// fencePauses pauses a replica three times in one load, each time past the TTL.
var fencePauses = "pause-replica@1s+" + fencePause + ",pause-replica@7s+" + fencePause + ",pause-replica@13s+" + fencePause

// requirePausesDone fails unless every fault of the run is a pause that was done and lasted
// longer than the lock's TTL.
func requirePausesDone(t *testing.T, r stressrun.Result, n int) {
	t.Helper()
	f := r.Rep.Faults
	if len(f) != n {
		t.Fatalf("faults in the report: %+v, want %d pauses\n%s", f, n, r.Stderr)
	}
	for _, x := range f {
		if x.Kind != nemesis.PauseReplica || x.Outcome != nemesis.Done || !strings.HasPrefix(x.Target, "replica ") || x.Ended.Sub(x.Injected) <= fenceTTL {
			t.Errorf("fault %+v: want a pause of a replica, done, longer than the TTL %v", x, fenceTTL)
		}
	}
}

// TestNemesisPausePastTheTTLOnRedlockStaysClean: a replica paused past the TTL while it holds
// leases wakes to find them lost; its writes stop or are fenced, and the verdict stays clean.
// The sandbox's log shows that a lease was lost, so the pause did land on a holder.
func TestNemesisPausePastTheTTLOnRedlockStaysClean(t *testing.T) {
	t.Parallel() // its load is light and mostly waits out its faults: it overlaps the other parallel tests
	sb := fenceSandbox(t, "redlock")
	r := stressrun.Run(t, sb, append(fenceLoad, "--nemesis", fencePauses)...)
	stressrun.RequireClean(t, r)
	requirePausesDone(t, r, 3)
	if !strings.Contains(sb.Stderr(), "LOST LOCK") && !strings.Contains(sb.Stderr(), "FENCED") {
		t.Errorf("no replica lost a lease or was fenced: the pauses never landed on a lock holder\n%s", sb.Stderr())
	}
}

// TestNemesisRestartsOneOfThreeMasters: with three Redis masters, one of them restarted empty
// during the load drops its copy of the locks but not the quorum: the verdict stays clean.
func TestNemesisRestartsOneOfThreeMasters(t *testing.T) {
	t.Parallel() // its load is light and mostly waits out its faults: it overlaps the other parallel tests
	sb := fenceSandbox(t, "redlock", "--redis-masters", "3")
	if len(sb.Redis) != 3 {
		t.Fatalf("up started %d Redis masters, want 3: %v", len(sb.Redis), sb.Redis)
	}
	r := stressrun.Run(t, sb, append(fenceLoad, "--nemesis", "restart-redis@1s")...)
	stressrun.RequireClean(t, r)
	f := r.Rep.Faults
	if len(f) != 1 || f[0].Kind != nemesis.RestartRedis || f[0].Outcome != nemesis.Done || !strings.HasPrefix(f[0].Target, "redis-server ") {
		t.Fatalf("faults in the report: %+v", f)
	}
}

// holderFaultTTL is the lock TTL of the holder-fault sandboxes; holderFaults' pause outlasts it.
const holderFaultTTL = "5s"

// holderLoad is the load of the holder-fault tests: docs/lock-fencing.md's, one request in flight
// per analysis.
var holderLoad = fenceLoad

// TestPauseHolderFindsTheUnfencedZombieWrite: the lease alone (redlock-nofence) is clean without
// faults; a replica paused past the TTL while it holds a lock (pause-holder, which waits for a
// holder, preferring one inside a background job) wakes after another replica took the lock and
// goes on writing: the extraction mixes two uploads, or another replica's extraction reads the
// zip the paused upload tore and fails. Every one of three loads in a row finds it, with no
// retry: a fault aimed at the critical section lands there.
func TestPauseHolderFindsTheUnfencedZombieWrite(t *testing.T) {
	t.Parallel() // its load is light and mostly waits out its faults: it overlaps the other parallel tests
	t.Run("clean without faults", func(t *testing.T) {
		t.Parallel() // on a sandbox of its own: it overlaps the three loads below
		// A 10 s TTL: on a busy machine a section can outlast 2 s, and a lease nobody renews
		// then expires without any fault (docs/lock-fencing.md).
		sb := fenceSandbox(t, "redlock-nofence", "--lock-ttl", "10s")
		stressrun.RequireClean(t, stressrun.Run(t, sb, fenceLoad...))
	})
	t.Run("three loads with pause-holder", func(t *testing.T) {
		t.Parallel() // on a sandbox of its own: the clean run above overlaps it
		sb := fenceSandbox(t, "redlock-nofence", "--lock-ttl", holderFaultTTL)
		for i := 1; i <= 3; i++ {
			r := stressrun.Run(t, sb, append(holderLoad, "--nemesis", "pause-holder@2s+8s")...)
			stressrun.RequireRaces(t, r)
			requireHolderFaults(t, r, nemesis.PauseHolder)
			t.Logf("load %d: %v", i, r.Rep.FindingCounts)
		}
	})
}

// TestHolderFaultsOnRedlockStayClean: with fencing (redlock), a holder paused past its TTL and a
// holder killed leave the verdict clean and conclusive; both faults are done, each naming the
// lock it hit and its holder.
func TestHolderFaultsOnRedlockStayClean(t *testing.T) {
	t.Parallel() // its load is light and mostly waits out its faults: it overlaps the other parallel tests
	r := stressrun.AfterAKill(t, func() stressrun.Result {
		return stressrun.Run(t, fenceSandbox(t, "redlock", "--lock-ttl", holderFaultTTL), append(holderLoad, "--nemesis", "pause-holder@2s+8s,kill-holder@6s")...)
	})
	stressrun.RequireClean(t, r)
	requireHolderFaults(t, r, nemesis.PauseHolder, nemesis.KillHolder)
}

// requireHolderFaults fails unless the run's faults are kinds, in order, each done on a replica
// and naming a lock key and its holder.
func requireHolderFaults(t *testing.T, r stressrun.Result, kinds ...nemesis.Kind) {
	t.Helper()
	f := r.Rep.Faults
	if len(f) != len(kinds) {
		t.Fatalf("faults in the report: %+v, want %v\n%s", f, kinds, r.Stderr)
	}
	for i, x := range f {
		if x.Kind != kinds[i] || x.Outcome != nemesis.Done || !strings.HasPrefix(x.Target, "replica ") || x.Lock == nil ||
			!strings.HasPrefix(x.Lock.Key, "redlock:") || !strings.Contains(x.Lock.Holder, ":") {
			t.Errorf("fault %d %+v (lock %+v): want %s done on a replica, with its lock key and holder", i, x, x.Lock, kinds[i])
		}
	}
}

// TestNemesisKillOnAnUnlockedSandboxStillRaces: faults do not hide the races of the real app: a
// replica killed during the load of --locking none leaves races found (exit 1). A failed
// extraction stays queued for good: 5 s without progress end the settle wait, not its default
// minute.
func TestNemesisKillOnAnUnlockedSandboxStillRaces(t *testing.T) {
	t.Parallel() // its load is light and mostly waits out the kill and the settle: it overlaps the other parallel tests
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "none")
	r := stressrun.Run(t, sb, "--requests", "2000", "--concurrency", "500", "--analyses", "20", "--settle-quiet", "5s", "--nemesis", "kill-replica@1s")
	stressrun.RequireRaces(t, r)
	if len(r.Rep.Faults) != 1 || r.Rep.Faults[0].Kind != nemesis.KillReplica || r.Rep.Faults[0].Outcome != nemesis.Done {
		t.Fatalf("faults in the report: %+v", r.Rep.Faults)
	}
}
