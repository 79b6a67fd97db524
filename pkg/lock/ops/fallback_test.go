package ops

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/redisconn"
)

// TestInspectWithoutScripting reads through an ACL user that may not run scripts (as on some
// managed Redis): the reader falls back to MULTI/EXEC with MGET and PTTL and sees the same.
func TestInspectWithoutScripting(t *testing.T) {
	ctx := context.Background()
	rs, ms := startMasters(t, 1)
	c := ms[0].Client
	must(t, c.Do(ctx, "ACL", "SETUSER", "reader", "on", ">readerpw", "~*", "+@all", "-@scripting").Err())
	must(t, c.Set(ctx, "redlock:f:live", "L", 9*time.Second).Err())
	must(t, c.Set(ctx, "redlock:f:nottl", "6f1c1a2e-0000-4000-8000-000000000000", 0).Err())
	must(t, c.HSet(ctx, "redlock:f:hash", "a", "b").Err())
	conns := testenv.Open(t, redisconn.Connect, redisconn.Config{URLs: []string{"redis://reader:readerpw@" + rs[0].Addr}}, redisconn.Close)
	if err := conns[0].Client.Eval(ctx, "return 1", nil).Err(); err == nil || !strings.Contains(err.Error(), "NOPERM") {
		t.Fatalf("the ACL user may run scripts: %v", err)
	}
	got, sum := inspectAll(t, []redisconn.Master{{Name: "limited", Client: conns[0].Client}}, Options{})
	if sum.Down() != 0 || len(got) != 3 {
		t.Fatalf("masters %+v, views %v", sum.Masters, keys(got))
	}
	if v := got["redlock:f:live"]; v.Value != "L" || v.Holdings[0].TTLMillis <= 0 || v.Verdict.Status != StatusLive {
		t.Errorf("live: %+v", v)
	}
	if v := got["redlock:f:nottl"]; v.Verdict.Rule != RuleNoTTL {
		t.Errorf("no TTL: %+v", v.Verdict)
	}
	if v := got["redlock:f:hash"]; v.Type != "hash" || v.Verdict.Rule != RuleNotString {
		t.Errorf("hash: %+v", v)
	}
}

// pods is a PodChecker over fixed namespaces of fixed pods, "ns/name" -> exists (pure logic;
// KubePods is exercised against a real API server by holder_kube_test.go). A namespace not
// in it cannot be read.
type pods map[string]bool

func (p pods) PodGone(_ context.Context, ns, name string) (bool, error) {
	if _, ok := p[ns+"/"]; !ok {
		return false, errors.New("namespaces is forbidden")
	}
	return !p[ns+"/"+name], nil
}

func holderIn(host, ns string) string {
	h := lock.NewHolder(host)
	h.Namespace = ns
	return h.String()
}

func TestHolderPodGone(t *testing.T) {
	ctx := context.Background()
	_, ms := startMasters(t, 1)
	c := ms[0].Client
	must(t, c.Set(ctx, "redlock:p:gone", holderIn("web-gone", "test"), 9*time.Second).Err())
	must(t, c.Set(ctx, "redlock:p:alive", holderIn("web-alive", "test"), 9*time.Second).Err())
	must(t, c.Set(ctx, "redlock:p:redsync", "q83vEjRWeJCrze8SNFZ4kA==", 9*time.Second).Err())
	// Unknown, never stale: a value without a namespace (a host, or written before namespaces
	// were recorded), a namespace that cannot be read, a host that cannot be a pod's name.
	must(t, c.Set(ctx, "redlock:p:old", "osctl:v1:web-gone:7:abc", 9*time.Second).Err())
	must(t, c.Set(ctx, "redlock:p:elsewhere", holderIn("web-gone", "other"), 9*time.Second).Err())
	must(t, c.Set(ctx, "redlock:p:vm", holderIn("Resque_VM_7", "test"), 9*time.Second).Err())
	checker := pods{"test/": true, "test/web-alive": true}
	got, sum := inspectAll(t, ms, Options{Pods: checker})
	if v := got["redlock:p:gone"]; v.Verdict.Rule != RuleHolderGone || !strings.Contains(v.Verdict.Reason, "web-gone in namespace test") {
		t.Errorf("gone: %+v", v.Verdict)
	}
	if got["redlock:p:alive"].Verdict.Status != StatusLive || got["redlock:p:redsync"].Verdict.Status != StatusLive || sum.Stale != 1 {
		t.Errorf("alive %+v, redsync %+v, %d stale", got["redlock:p:alive"].Verdict, got["redlock:p:redsync"].Verdict, sum.Stale)
	}
	for _, k := range []string{"redlock:p:old", "redlock:p:elsewhere", "redlock:p:vm"} {
		if v := got[k]; v.Verdict.Status != StatusLive {
			t.Errorf("%s (%s): %+v, want live (holder unknown)", k, v.Value, v.Verdict)
		}
	}
	if len(sum.Warnings) != 1 || !strings.Contains(sum.Warnings[0], "namespace other") {
		t.Errorf("warnings %q, want one about namespace other", sum.Warnings)
	}
	// Break takes it; had the holder renewed it since, the TTL check would refuse.
	v := got["redlock:p:gone"]
	must(t, c.PExpire(ctx, "redlock:p:gone", 20*time.Second).Err())
	rec, _ := NewBreaker(ms, BreakOptions{}).Break(ctx, v)
	if rec.Deleted() != 0 {
		t.Fatalf("a renewed holder-gone lock was deleted: %+v", rec)
	}
	got, _ = inspectAll(t, ms, Options{Pods: pods{"test/": true}})
	rec, _ = NewBreaker(ms, BreakOptions{}).Break(ctx, got["redlock:p:gone"])
	if rec.Outcome != OutcomeBroken || rec.Rule != RuleHolderGone {
		t.Fatalf("%+v", rec)
	}
}
