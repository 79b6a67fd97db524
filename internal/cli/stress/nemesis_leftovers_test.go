package stress

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/internal/testenv/stressrun"
	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/sandbox"
)

// TestNemesisMarksRequestsInFlight: a replica of a locked sandbox killed during the load caught
// requests in flight; the report counts them on the fault, they are ambiguous (the kill cut them
// off), and the verdict stays clean and conclusive (exit 0). `osctl stress judge` of the history
// counts the same, and says so in its summary.
func TestNemesisMarksRequestsInFlight(t *testing.T) {
	t.Parallel() // its load is light and mostly waits out the kill and the settle: it overlaps the other parallel tests
	sb, hist, res := lockedLoadWithFaults(t, "kill-replica@1s", "3")
	if res.Code != 0 || res.Rep.Verdict != "clean" || !res.Rep.Conclusive || len(res.Rep.Faults) != 1 {
		t.Fatalf("exit %d, verdict %s %v, faults %+v\n%s", res.Code, res.Rep.Verdict, res.Rep.Reasons, res.Rep.Faults, res.Stderr)
	}
	f := res.Rep.Faults[0]
	in := f.InFlight
	replica := strings.Fields(f.Target) // "replica N (pid P)"
	if len(replica) < 2 {
		t.Fatalf("fault target %q does not name a replica", f.Target)
	}
	replica = replica[:2]
	if in == nil || in.Requests == 0 || in.Ambiguous == 0 || in.Ambiguous+in.Acknowledged+in.Rejected != in.Requests ||
		!strings.HasPrefix(in.Scope, strings.Join(replica, " ")+" (http://127.0.0.1:") || len(in.Seqs) == 0 {
		t.Fatalf("fault %v on %s caught %+v: want requests in flight on that replica, cut off and so ambiguous", f, f.Target, in)
	}
	t.Logf("%v on %s caught %d requests (%d ambiguous, %d acknowledged, %d rejected); outcomes %v", f, f.Target, in.Requests, in.Ambiguous, in.Acknowledged, in.Rejected, res.Rep.Outcomes)
	if in.Ambiguous > res.Rep.Outcomes["ambiguous"] {
		t.Errorf("%d caught requests ambiguous, but the run counts %d ambiguous in all", in.Ambiguous, res.Rep.Outcomes["ambiguous"])
	}
	if l := res.Rep.Leftovers; l == nil || !l.Read {
		t.Errorf("leftovers %+v: want them read after a run with a fault", l)
	}
	again := judgeHistory(t, hist, sb.StateDir)
	if len(again.Faults) != 1 || !reflect.DeepEqual(again.Faults[0].InFlight, in) || !reflect.DeepEqual(again.Leftovers, res.Rep.Leftovers) {
		t.Errorf("judge of the history: faults %+v, leftovers %+v; the run: %+v, %+v", again.Faults, again.Leftovers, in, res.Rep.Leftovers)
	}
	text := testenv.RunOsctl(t, time.Minute, "stress", "judge", "--history", hist, "--state-dir", sb.StateDir)
	if want := "caught " + strconv.Itoa(in.Requests) + " request(s) in flight on " + in.Scope; text.Code != 0 || !strings.Contains(text.Stdout, want) {
		t.Errorf("judge's summary (exit %d) lacks %q:\n%s", text.Code, want, text.Stdout)
	}
}

// TestNemesisReportsLeftoversApart: what dead holders left is in the report, apart from the
// findings, and the exit code is the verdict's. Two holders die for real: a process that took a
// lock in the sandbox's redis-server through pkg/lock (a TTL of holderTTL, far past the run on a loaded machine, on a key of its own so that it
// blocks no upload) and was SIGKILLed before the run, and the replica --nemesis kills while it
// writes uploads slowly (1 KiB pieces 30 ms apart, 16 analyses: it is writing one of them at the
// kill, and its temp file stays).
func TestNemesisReportsLeftoversApart(t *testing.T) {
	t.Parallel() // its load is light (uploads written slowly) and mostly waits: it overlaps the other parallel tests
	var sb *sandboxenv.Sandbox
	var pid int
	var value, hist, page string
	res := stressrun.AfterAKill(t, func() stressrun.Result {
		sb = sandboxenv.Start(t, "--replicas", "2", "--locking", "redlock", "--upload-chunk", "1024", "--write-delay", "30ms")
		procs, err := sandbox.ReadProcesses(sb.StateDir)
		if err != nil || len(procs.Redis) == 0 {
			t.Fatalf("sandbox processes %+v: %v", procs, err)
		}
		pid, value = deadHolder(t, procs.Redis[0].Addr)
		dir := t.TempDir()
		hist, page = filepath.Join(dir, "history.jsonl"), filepath.Join(dir, "run.html")
		return stressrun.Run(t, sb, "--requests", "400", "--concurrency", "64", "--analyses", "16", "--history", hist, "--html", page,
			"--nemesis", "kill-replica@1s")
	})
	if res.Code != 0 || res.Rep.Verdict != "clean" || res.Rep.ExitCode() != res.Code {
		t.Fatalf("exit %d, verdict %s %v, findings %v: want the locked sandbox clean (exit 0) whatever was left\n%s", res.Code, res.Rep.Verdict, res.Rep.Reasons, res.Rep.FindingCounts, res.Stderr)
	}
	l := res.Rep.Leftovers
	if l == nil || !l.Read {
		t.Fatalf("leftovers %+v", l)
	}
	t.Logf("leftovers: %d lock files, %d temp files, %d redis locks, blocked %+v; fault caught %+v", len(l.LockFiles), len(l.TempFiles), len(l.RedisLocks), l.BlockedFor, res.Rep.Faults[0].InFlight)
	var held bool
	for _, k := range l.RedisLocks {
		held = held || (k.Key == holderKey && k.HolderPID == pid && k.Value == value && k.Status == "stale" && k.TTLMillis > 0)
	}
	if !held {
		t.Errorf("redis locks %+v: want %s of pid %d, stale (holder gone)", l.RedisLocks, holderKey, pid)
	}
	if len(l.TempFiles) == 0 {
		t.Errorf("no temp file listed: the replica killed while writing left none? leftovers %+v", l)
	}
	if len(l.BlockedFor) == 0 || l.BlockedFor[0].Seconds <= 0 || l.BlockedFor[0].Analysis == "" {
		t.Errorf("blocked for %+v: want the longest wait after the kill on an analysis it was writing", l.BlockedFor)
	}
	for _, tf := range l.TempFiles {
		if _, err := os.Lstat(filepath.Join(sb.StateDir, filepath.FromSlash(tf.Path))); err != nil {
			t.Errorf("temp file %s listed but not there: %v", tf.Path, err)
		}
	}
	b, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(b), `id="leftovers"`) || !strings.Contains(string(b), value) {
		t.Errorf("the HTML report has no leftovers section naming the dead holder's lock (%v)", err)
	}
	again := judgeHistory(t, hist, sb.StateDir)
	if !reflect.DeepEqual(again.Leftovers, l) || again.Verdict != res.Rep.Verdict {
		t.Errorf("judge of the history: leftovers %+v, verdict %s; the run: %+v, %s", again.Leftovers, again.Verdict, l, res.Rep.Verdict)
	}
}

// holderKey is the lock the dead holder process leaves.
const holderKey = "redlock:leftover-holder:analysis_zip"

// holderTTL is the dead holder's lease: it must outlast the run and the read of its leftovers,
// which took 87 s on a loaded 2-core machine (a 60 s lease had expired by then).
const holderTTL = 15 * time.Minute

// holderEnv makes the test binary the holder process (TestNemesisLeftoverHolderProcess).
const holderEnv = "OSCTL_TEST_LEFTOVER_HOLDER_REDIS"

// deadHolder starts this test binary as a process that takes holderKey on the redis-server at
// addr, and SIGKILLs it once it holds it: its pid and the lock's value.
func deadHolder(t *testing.T, addr string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestNemesisLeftoverHolderProcess$")
	cmd.Env = append(os.Environ(), holderEnv+"="+addr)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		lines <- strings.TrimSpace(line)
	}()
	var value string
	select {
	case value = <-lines:
	case <-time.After(30 * time.Second):
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if !strings.HasPrefix(value, "held osctl:v1:") {
		t.Fatalf("the holder process said %q", value)
	}
	return cmd.Process.Pid, strings.TrimPrefix(value, "held ")
}

// TestNemesisLeftoverHolderProcess is the holder process of deadHolder (it does nothing in a
// normal test run): it takes holderKey for holderTTL, says so, and waits to be killed.
func TestNemesisLeftoverHolderProcess(t *testing.T) {
	addr := os.Getenv(holderEnv)
	if addr == "" {
		t.Skip("the holder process of TestNemesisReportsLeftoversApart")
	}
	c := redis.NewClient(&redis.Options{Addr: addr})
	l, err := lock.New([]redis.UniversalClient{c}, lock.WithTTL(holderTTL), lock.WithAnyTTL())
	if err != nil {
		t.Fatal(err)
	}
	ls, err := l.Acquire(context.Background(), holderKey)
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("held " + ls.Value() + "\n")
	time.Sleep(holderTTL)
}
