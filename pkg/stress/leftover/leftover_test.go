package leftover

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/lock/ops"
	"github.com/osctl/osctl/pkg/sandbox"
	"github.com/osctl/osctl/pkg/stress/history"
)

// TestReadFiles: in the run's directories, a lock file without its receipt (stale, or held while
// another descriptor flocks it), and temp files and directories are listed; a lock file with its
// receipt, a file of another name and a directory the run did not write are not.
func TestReadFiles(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) string {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("server/analyses/a/analysis_zip.lock", "")
	held := write("server/analyses/b/analysis_zip.lock", "")
	write("server/analyses/c/analysis_zip.lock", "")
	write("server/analyses/c/analysis_zip.receipt", "done")
	write("server/assets/analyses/a/original/.osctl-tmp-123", "half a zip")
	write("server/assets/analyses/a/original/run.zip", "a zip")
	write("server/analyses/b/.osctl-tmp-dir-9/seeds/seed.osm", "x")
	write("server/analyses/other/.osctl-tmp-1", "not the run's")
	write("server/analyses/.osctl-tmp-a-77/analysis.json", "an extraction of a built aside")
	write("server/analyses/.osctl-tmp-other-78/analysis.json", "another analysis's")
	fd, err := os.Open(held)
	if err != nil {
		t.Fatal(err)
	}
	defer fd.Close()
	if err := syscall.Flock(int(fd.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	dirs := []string{"server/assets/analyses/a/original", "server/analyses/a", "server/analyses/b", "server/analyses/c", "server/analyses/never"}
	l := &history.Leftovers{}
	readFiles(t.Context(), root, sandbox.TempPrefix, dirs, time.Now(), l)
	got := []string{}
	for _, f := range l.LockFiles {
		got = append(got, f.Path+" "+f.Status)
	}
	for _, f := range l.TempFiles {
		got = append(got, f.Path+" temp")
	}
	want := "server/analyses/a/analysis_zip.lock stale,server/analyses/b/analysis_zip.lock held," +
		"server/analyses/.osctl-tmp-a-77 temp,server/analyses/b/.osctl-tmp-dir-9 temp,server/assets/analyses/a/original/.osctl-tmp-123 temp"
	if strings.Join(got, ",") != want || len(l.Warnings) != 0 {
		t.Errorf("got %v (warnings %v)\nwant %s", got, l.Warnings, want)
	}
	if !l.TempFiles[0].Dir || !l.TempFiles[1].Dir || l.TempFiles[2].Size != int64(len("half a zip")) {
		t.Errorf("temp files %+v", l.TempFiles)
	}
}

// TestLockOf: an osctl holder whose pid is no running replica of the sandbox is stale; one a
// replica holds is live; inspect's own stale verdict stands.
func TestLockOf(t *testing.T) {
	replicas := map[int]string{41: sandbox.Process{Kind: "replica", Index: 0, Pid: 41}.String()}
	view := func(pid int, st ops.Status) ops.View {
		h := lock.Holder{Host: "h", PID: pid, Random: "r"}
		return ops.View{Key: "redlock:a1:analysis_zip", AnalysisID: "a1", Value: h.String(), Holder: &h, Held: 1, Masters: 1,
			Holdings: []ops.Holding{{Present: true, Type: "string", Value: h.String(), TTLMillis: 4000}},
			Verdict:  ops.Verdict{Status: st, Reason: "held on 1 of 1 masters, TTL 4s"}}
	}
	if k := lockOf(view(41, ops.StatusLive), replicas); k.Status != StatusLive || !strings.Contains(k.Reason, "replica 0 (pid 41)") || k.TTLMillis != 4000 || k.HolderPID != 41 {
		t.Errorf("a live replica's lock: %+v", k)
	}
	if k := lockOf(view(42, ops.StatusLive), replicas); k.Status != StatusStale || !strings.Contains(k.Reason, "pid 42 is not a running replica") {
		t.Errorf("a dead holder's lock: %+v", k)
	}
	v := view(41, ops.StatusStale)
	v.Verdict.Reason = "no TTL on m1"
	if k := lockOf(v, replicas); k.Status != StatusStale || k.Reason != "no TTL on m1" {
		t.Errorf("inspect's stale verdict: %+v", k)
	}
}

// running is a sandbox that runs over dir with the given redis-servers and replicas.
type running struct {
	dir      string
	redis    []string
	replicas map[int]string
}

func (r running) Dir() string        { return r.dir }
func (r running) TempPrefix() string { return sandbox.TempPrefix }
func (r running) Processes() ([]string, map[int]string, error) {
	return r.redis, r.replicas, nil
}

// TestReadRedisLocks: on a real redis-server, a lock held by a pid that is no running replica is
// stale, one a running replica holds is live, and a key that is no lock is not listed.
func TestReadRedisLocks(t *testing.T) {
	r := testenv.StartRedis(t)
	c := redis.NewClient(&redis.Options{Addr: r.Addr})
	defer c.Close()
	live := lock.Holder{Host: "h", PID: 41, Random: "r1"}.String()
	dead := lock.Holder{Host: "h", PID: 42, Random: "r2"}.String()
	for k, v := range map[string]string{"redlock:a1:analysis_zip": live, "redlock:a2:analysis_zip": dead, "other": "x"} {
		if err := c.Set(t.Context(), k, v, time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
	}
	sb := running{dir: t.TempDir(), redis: []string{r.Addr}, replicas: map[int]string{41: "replica 0 (pid 41)"}}
	l := Read(t.Context(), sb, nil, time.Now())
	got := []string{}
	for _, k := range l.RedisLocks {
		got = append(got, k.Key+" "+k.Status)
	}
	if want := "redlock:a1:analysis_zip live,redlock:a2:analysis_zip stale"; strings.Join(got, ",") != want || len(l.Warnings) != 0 {
		t.Errorf("got %v (warnings %v), want %s", got, l.Warnings, want)
	}
}

// TestReadWithoutARunningSandbox: a state directory no sandbox runs over is a warning naming it.
func TestReadWithoutARunningSandbox(t *testing.T) {
	dir := t.TempDir()
	l := Read(t.Context(), sandbox.StateDir(dir), []string{"server/analyses/a"}, time.Now())
	if len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], dir+" has no "+sandbox.ProcessesFile+" (not a running sandbox's state directory)") {
		t.Errorf("warnings %q", l.Warnings)
	}
}
