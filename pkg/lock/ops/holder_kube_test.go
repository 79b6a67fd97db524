package ops_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
)

func TestMain(m *testing.M) { os.Exit(testenv.RunMain(m)) }

// inspected is the part of `osctl locks inspect -o json` these tests read.
type inspected struct {
	Locks []struct {
		Key     string `json:"key"`
		Verdict struct {
			Status, Rule, Reason string
		} `json:"verdict"`
	} `json:"locks"`
	Warnings []string `json:"warnings"`
}

// holderValue is an osctl holder value of host, recording namespace ns ("" for none).
func holderValue(host, ns string, pid int) string {
	return lock.Holder{Host: host, PID: pid, Random: "abcdefghijklmnop", Namespace: ns}.String()
}

// TestHolderLivenessAgainstRealCluster: with a kubeconfig whose namespace is not the holders',
// `osctl locks break --stale --yes`, run again and again, never breaks a live lock whose holder
// osctl cannot judge: a real pkg/lock lease renewed every 2 s by a host that is no pod (a VM), one
// held by a running pod of another namespace, a value of before namespaces were recorded, and a
// holder in a namespace that is not in this cluster. A dead pod's lock in the namespace its
// value records is broken. Runs the real binary against a real API server and Redis.
func TestHolderLivenessAgainstRealCluster(t *testing.T) {
	bin := testenv.OsctlBinary(t) // built first: a build on a busy machine outlasts short TTLs
	k := testenv.SharedKube(t)
	r := testenv.StartRedis(t)
	kubeNS, podNS := k.NewNamespace(t), k.NewNamespace(t)
	k.Apply(t, podNS, testenv.WebDeployment(1, `containers: [{name: web, image: registry.invalid/web:1}]`))
	pod := k.ReadyPods(t, podNS, "app=web", 1)[0]
	ctx := context.Background()
	c := r.Client()

	// Two live locks, each renewed every 2 s by pkg/lock: a VM's, and the running pod's of
	// another namespace than the kubeconfig's.
	const vmKey, podKey = "redlock:vm:analysis_zip", "redlock:elsewhere:analysis_zip"
	vm := holdRenewed(t, c, vmKey, lock.WithHost("resque-vm-7"), lock.WithNamespace(""))
	inPod := holdRenewed(t, c, podKey, lock.WithHost(pod), lock.WithNamespace(podNS))
	if h := inPod.Holder(); h.Namespace != podNS || strings.Count(inPod.Value(), ":") != 5 {
		t.Fatalf("the pod's holder value %q records no namespace", inPod.Value())
	}
	// Unknown too: a value without a namespace naming no pod, a namespace not in this cluster.
	const oldKey, farKey, goneKey = "redlock:old:analysis_zip", "redlock:far:analysis_zip", "redlock:gone:analysis_zip"
	must(t, c.Set(ctx, oldKey, holderValue("web-5d9f8-old", "", 101), 25*time.Second).Err())
	must(t, c.Set(ctx, farKey, holderValue("web-5d9f8-far", "no-such-namespace", 102), 25*time.Second).Err())
	// Gone: a pod that is not in the namespace its value records, which exists.
	must(t, c.Set(ctx, goneKey, holderValue("web-5d9f8-gone", podNS, 103), 25*time.Second).Err())

	run := func(args ...string) (string, string, int) {
		cmd := exec.Command(bin, append([]string{"--redis", r.URL(), "--kubeconfig", k.Kubeconfig, "-n", kubeNS}, args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), stderr.String(), code
	}
	out, stderr, code := run("locks", "inspect", "-o", "json")
	if code != 1 {
		t.Fatalf("inspect exit %d, want 1 (a stale lock): %s\n%s", code, out, stderr)
	}
	var res inspected
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("inspect -o json: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, v := range res.Locks {
		got[v.Key] = v.Verdict.Status + ": " + v.Verdict.Reason
	}
	want := "stale: holder pod web-5d9f8-gone in namespace " + podNS + " no longer exists"
	if got[goneKey] != want {
		t.Errorf("the dead pod's lock: %q, want %q", got[goneKey], want)
	}
	for _, key := range []string{vmKey, podKey, oldKey, farKey} {
		if !strings.HasPrefix(got[key], "live: ") {
			t.Errorf("%s: %q, want live (its holder cannot be judged gone)", key, got[key])
		}
	}
	if !strings.Contains(stderr, "namespace no-such-namespace") {
		t.Errorf("no warning about the namespace not in the cluster: %s", stderr)
	}

	// break --stale, four times over 6 s (three renewals): only the dead pod's lock goes.
	for round := 0; round < 4; round++ {
		out, stderr, code := run("locks", "break", "--stale", "--yes")
		if code != 0 {
			t.Fatalf("break --stale round %d: exit %d\n%s%s", round, code, out, stderr)
		}
		if round == 0 && !strings.Contains(stderr, "deleted "+goneKey) {
			t.Errorf("round 0 did not break the dead pod's lock:\n%s%s", out, stderr)
		}
		if round > 0 && strings.Contains(stderr, "deleted ") {
			t.Errorf("round %d deleted something:\n%s%s", round, out, stderr)
		}
		time.Sleep(1500 * time.Millisecond)
	}
	for _, ls := range []*lock.Lease{vm, inPod} {
		if err := ls.Err(); err != nil {
			t.Errorf("the lease on %s was lost: %v", ls.Key(), err)
		}
		if v, err := c.Get(ctx, ls.Key()).Result(); err != nil || v != ls.Value() {
			t.Errorf("%s holds %q (%v), want the live holder's %q", ls.Key(), v, err, ls.Value())
		}
	}
	for _, key := range []string{oldKey, farKey} {
		if n, _ := c.Exists(ctx, key).Result(); n != 1 {
			t.Errorf("%s, whose holder is unknown, was removed", key)
		}
	}
	if n, _ := c.Exists(ctx, goneKey).Result(); n != 0 {
		t.Errorf("the dead pod's lock is still there")
	}
}

// holdRenewed acquires key with pkg/lock (TTL 25 s, renewed every 2 s) and releases it when the
// test ends.
func holdRenewed(t *testing.T, c *redis.Client, key string, opts ...lock.Option) *lock.Lease {
	t.Helper()
	opts = append(opts, lock.WithTTL(25*time.Second), lock.WithRenewEvery(2*time.Second), lock.WithFencing(false))
	l, err := lock.New([]redis.UniversalClient{c}, opts...)
	must(t, err)
	ls, err := l.Acquire(context.Background(), key)
	must(t, err)
	t.Cleanup(func() { _ = ls.Release(context.Background()) })
	return ls
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestHolderLivenessWithANamespacedRole: osctl running as a ServiceAccount that may only get and
// list pods in the holders' namespace (no cluster-wide namespaces get) still judges a dead pod's
// lock there gone, the namespace being known to exist from its other pods; a holder in a
// namespace it may not read is unknown, with a warning, and its lock is live.
func TestHolderLivenessWithANamespacedRole(t *testing.T) {
	bin := testenv.OsctlBinary(t)
	k := testenv.SharedKube(t)
	r := testenv.StartRedis(t)
	podNS, otherNS := k.NewNamespace(t), k.NewNamespace(t)
	k.Apply(t, podNS, testenv.WebDeployment(1, `containers: [{name: web, image: registry.invalid/web:1}]`))
	k.ReadyPods(t, podNS, "app=web", 1)
	k.Kubectl(t, "-n", podNS, "create", "serviceaccount", "locks")
	k.Kubectl(t, "-n", podNS, "create", "role", "pods-read", "--verb=get,list", "--resource=pods")
	k.Kubectl(t, "-n", podNS, "create", "rolebinding", "locks-pods-read", "--role=pods-read", "--serviceaccount="+podNS+":locks")
	kubeconfig := k.ServiceAccountKubeconfig(t, podNS, "locks")
	ctx := context.Background()
	c := r.Client()
	const goneKey, otherKey = "redlock:rbac-gone:analysis_zip", "redlock:rbac-other:analysis_zip"
	must(t, c.Set(ctx, goneKey, holderValue("web-5d9f8-gone", podNS, 201), 25*time.Second).Err())
	must(t, c.Set(ctx, otherKey, holderValue("web-5d9f8-gone", otherNS, 202), 25*time.Second).Err())

	cmd := exec.Command(bin, "--redis", r.URL(), "--kubeconfig", kubeconfig, "-n", podNS, "locks", "inspect", "-o", "json")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("inspect: %v, want exit 1 (a stale lock)\n%s\n%s", err, out, stderr.String())
	}
	var res inspected
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("inspect -o json: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, v := range res.Locks {
		got[v.Key] = v.Verdict.Status + "/" + v.Verdict.Rule
	}
	if got[goneKey] != "stale/holder-gone" || got[otherKey] != "live/live" {
		t.Fatalf("verdicts %v, want %s stale/holder-gone and %s live\n%s", got, goneKey, otherKey, stderr.String())
	}
	if !strings.Contains(stderr.String(), "cannot check holder pods in namespace "+otherNS) {
		t.Errorf("no warning about namespace %s: %s", otherNS, stderr.String())
	}
}
