package locks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
)

// osctlRun runs the real binary with args and an environment of only what it is given.
func osctlRun(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(testenv.OsctlBinary(t), args...)
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}, env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	code = testenv.ExitCode(t, cmd.Run())
	return out.String(), errOut.String(), code
}

type inspectJSON struct {
	Masters []struct {
		Name, Kind, Error string
		Nodes             []struct{ Addr, Error string }
	}
	Locks []struct {
		Key      string
		Verdict  struct{ Status, Rule string }
		Holdings []struct{ Node string }
	}
	Stale int
}

func inspectOut(t *testing.T, stdout string) inspectJSON {
	t.Helper()
	var r inspectJSON
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("inspect -o json: %v\n%s", err, stdout)
	}
	return r
}

// TestLocksOnACluster runs locks inspect and break --stale against a real 3-primary cluster:
// every lock of every shard found with its shard, the stale ones removed on their shards, a
// live one (held by pkg/lock, renewing) never.
func TestLocksOnACluster(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const pw = "cluster-Pw-77"
	c := testenv.StartRedisCluster(t, 3, testenv.TopologyOptions{Password: pw})
	cc := c.Client(t)
	var stale []string
	shards := map[string]bool{}
	for i := 0; len(stale) < 9 || len(shards) < 3; i++ {
		k := lock.Key(fmt.Sprintf("%08x-8f2a-4e6b", i*2654435761), "analysis_zip")
		if err := cc.Set(ctx, k, "osctl:v1:resque-web-1:41:abc", 0).Err(); err != nil {
			t.Fatal(err)
		}
		stale = append(stale, k)
		shards[c.NodeFor(t, k).Addr] = true
	}
	l, err := lock.New([]redis.UniversalClient{c.Client(t)}, lock.WithHost("web-live"))
	if err != nil {
		t.Fatal(err)
	}
	lease, err := l.Acquire(ctx, lock.Key("live-analysis", "analysis_zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer lease.Release(ctx)
	env := []string{"OSCTL_REDIS_CLUSTER=" + c.URL()}

	out, errOut, code := osctlRun(t, env, "locks", "inspect", "-o", "json")
	r := inspectOut(t, out)
	if code != 1 || r.Stale != len(stale) || len(r.Locks) != len(stale)+1 || r.Masters[0].Kind != "cluster" || len(r.Masters[0].Nodes) != 3 {
		t.Fatalf("inspect: exit %d, %d locks, %d stale, masters %+v\n%s", code, len(r.Locks), r.Stale, r.Masters, errOut)
	}
	for _, v := range r.Locks {
		if want := c.NodeFor(t, v.Key).Addr; v.Holdings[0].Node != want {
			t.Errorf("%s read on %s, its shard is %s", v.Key, v.Holdings[0].Node, want)
		}
	}
	if strings.Contains(out+errOut, pw) {
		t.Fatal("inspect printed the password")
	}
	out, errOut, _ = osctlRun(t, env, "locks", "inspect")
	if !strings.Contains(errOut, "Redis Cluster, read on its 3 primary shard(s)") || !strings.Contains(out, "NODE") {
		t.Errorf("table:\n%s\n%s", out, errOut)
	}

	out, errOut, code = osctlRun(t, env, "locks", "break", "--stale", "--yes")
	if code != 0 || strings.Count(errOut, "deleted redlock:") != len(stale) || !strings.Contains(errOut, "(node 127.0.0.1:") {
		t.Fatalf("break --stale: exit %d\n%s\n%s", code, out, errOut)
	}
	out, errOut, code = osctlRun(t, env, "locks", "inspect", "-o", "json")
	r = inspectOut(t, out)
	if code != 0 || len(r.Locks) != 1 || r.Locks[0].Key != lease.Key() || r.Locks[0].Verdict.Status != "live" || lease.Err() != nil {
		t.Fatalf("after the break: exit %d %+v, lease %v\n%s", code, r.Locks, lease.Err(), errOut)
	}
}

// TestLocksThroughSentinelAcrossAFailover inspects a lock through the sentinels, then runs
// SENTINEL FAILOVER while locks inspect --watch and serve-metrics keep running: both read the
// new master, by its address, without a restart. preflight redis reports Sentinel and warns.
func TestLocksThroughSentinelAcrossAFailover(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const pw = "sentinel-Pw-77"
	s := testenv.StartRedisSentinel(t, testenv.TopologyOptions{Password: pw})
	key := lock.Key("sentinel-analysis", "analysis_zip")
	if err := s.Master.Client().Set(ctx, key, "osctl:v1:web-0:7:abc", 0).Err(); err != nil { // stale: no TTL
		t.Fatal(err)
	}
	if err := s.Master.Client().Wait(ctx, 1, 5000).Err(); err != nil {
		t.Fatal(err)
	}
	env := []string{"OSCTL_REDIS_SENTINEL=" + s.URL(), "OSCTL_REDIS_SENTINEL_MASTER=" + testenv.SentinelMaster}
	out, errOut, code := osctlRun(t, env, "locks", "inspect", "-o", "json")
	r := inspectOut(t, out)
	if code != 1 || len(r.Locks) != 1 || r.Locks[0].Holdings[0].Node != s.Master.Addr || r.Masters[0].Kind != "sentinel" {
		t.Fatalf("inspect: exit %d %+v\n%s", code, r, errOut)
	}
	out, errOut, code = osctlRun(t, env, "preflight", "redis", "--clock-interval", "200ms")
	if code != 0 || !strings.Contains(out, "Sentinel") || !strings.Contains(out, "min-replicas-to-write") || strings.Contains(out+errOut, pw) {
		t.Errorf("preflight redis: exit %d\n%s\n%s", code, out, errOut)
	}

	srv := serveMetrics(t, "--redis-sentinel", s.URL(), "--redis-sentinel-master", testenv.SentinelMaster, "--min-interval", "0")
	upOn := func(addr string) string {
		return fmt.Sprintf(`osctl_redis_up{master=%q,node=%q} 1`, testenv.SentinelMaster, addr)
	}
	if text := srv.scrape(t); !strings.Contains(text, upOn(s.Master.Addr)) {
		t.Fatalf("before the failover:\n%s", text)
	}
	watch := exec.Command(testenv.OsctlBinary(t), "locks", "inspect", "--watch", "500ms", "-o", "jsonl",
		"--redis-sentinel", s.URL(), "--redis-sentinel-master", testenv.SentinelMaster)
	watch.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}
	var wout, werr testenv.LockedBuffer
	watch.Stdout, watch.Stderr = &wout, &werr
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = watch.Process.Kill(); _ = watch.Wait() }) // by its pid: started here

	next := s.Failover(t)
	testenv.WaitFor(t, 30*time.Second, "serve-metrics to read the new master", func() (bool, error) {
		return strings.Contains(srv.scrape(t), upOn(next.Addr)), nil
	})
	onNew := fmt.Sprintf(`"node":%q`, next.Addr)
	testenv.WaitFor(t, 30*time.Second, "inspect --watch to read the new master", func() (bool, error) {
		return strings.Contains(wout.String(), onNew), nil
	})
	text := srv.scrape(t)
	if !strings.Contains(text, `osctl_locks{flavour="osctl",verdict="stale"} 1`) {
		t.Errorf("the lock is not seen on the new master:\n%s", text)
	}
	if strings.Contains(wout.String()+werr.String()+srv.stderr.String(), pw) {
		t.Fatal("a password was printed")
	}
}

// TestLocksWithTLSAndACLUsers: over TLS, the documented ACL user inspects, and one without
// EVAL still inspects (plain commands) but cannot break, and is told it lacks EVAL.
func TestLocksWithTLSAndACLUsers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tlsf := testenv.NewTLS(t)
	rd := testenv.StartRedisTLS(t, tlsf)
	servers := []*testenv.Redis{rd.Redis}
	testenv.AddACLUser(t, servers, "osctl", "osctl-Pw-1", testenv.ACLOsctl)
	testenv.AddACLUser(t, servers, "noeval", "noeval-Pw-1", testenv.WithoutCommands(testenv.ACLOsctl, "eval", "evalsha"))
	if err := rd.Client().Set(ctx, "redlock:tls:analysis_zip", "osctl:v1:resque-web-1:41:abc", 0).Err(); err != nil {
		t.Fatal(err)
	}
	url := rd.TLSURL
	for _, user := range [][2]string{{"osctl", "osctl-Pw-1"}, {"noeval", "noeval-Pw-1"}} {
		out, errOut, code := osctlRun(t, nil, "locks", "inspect", "-o", "json", "--redis", url(user[0], user[1]), "--redis-ca", tlsf.CA)
		if r := inspectOut(t, out); code != 1 || r.Stale != 1 {
			t.Errorf("inspect as %s: exit %d %+v\n%s", user[0], code, r, errOut)
		}
	}
	out, errOut, code := osctlRun(t, nil, "locks", "break", "--stale", "--yes", "--redis", url("noeval", "noeval-Pw-1"), "--redis-ca", tlsf.CA)
	if code != 2 || !strings.Contains(errOut, "may not run EVAL") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || strings.Contains(errOut, "noeval-Pw-1") {
		t.Fatalf("break without EVAL: exit %d\n%s\n%s", code, out, errOut)
	}
	if n, _ := rd.Client().Exists(ctx, "redlock:tls:analysis_zip").Result(); n != 1 {
		t.Fatal("the refused break deleted the key")
	}
	// Without SCAN, or without the lock keys: one line each, naming what is missing (exit 2: the
	// only master could not be read).
	testenv.AddACLUser(t, servers, "noscan", "noscan-Pw-1", testenv.WithoutCommands(testenv.ACLOsctl, "scan"))
	testenv.AddACLUser(t, servers, "nokeys", "nokeys-Pw-1", strings.Replace(testenv.ACLOsctl, "~redlock:* ", "", 1))
	for user, want := range map[string]string{"noscan": "may not run SCAN", "nokeys": "GET on redlock:*"} {
		_, errOut, code := osctlRun(t, nil, "locks", "inspect", "--redis", url(user, user+"-Pw-1"), "--redis-ca", tlsf.CA)
		if code != 2 || !strings.Contains(errOut, want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("inspect as %s: exit %d, want 2 and one line with %q:\n%s", user, code, want, errOut)
		}
	}
	_, errOut, code = osctlRun(t, nil, "locks", "break", "--stale", "--yes", "--redis", url("osctl", "osctl-Pw-1"), "--redis-ca", tlsf.CA)
	if code != 0 || !strings.Contains(errOut, "1 lock(s) broken") {
		t.Fatalf("break as the documented user: exit %d\n%s", code, errOut)
	}
}
