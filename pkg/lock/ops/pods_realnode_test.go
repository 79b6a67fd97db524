//go:build linux

package ops_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/realnode"
)

// TestHolderPodsAreRealPods: the holders of two locks are real pods, each lock's holder value
// carrying the host name the pod's own container reports and the pod's namespace (what osctl in
// that pod writes, POD_NAMESPACE from the downward API: without it a holder is never gone). One
// pod is deleted and its process really ends; `locks inspect` then calls its lock stale, naming
// the pod, and the running pod's lock live, and `locks break --stale` removes only the first.
func TestHolderPodsAreRealPods(t *testing.T) {
	bin := testenv.OsctlBinary(t)
	c := realnode.Shared(t)
	r := testenv.StartRedis(t)
	k := c.Kube
	ns := k.NewNamespace(t)
	for _, name := range []string{"holder-a", "holder-b"} {
		k.Apply(t, ns, fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata: {name: %s, labels: {app: holder}}
spec:
  terminationGracePeriodSeconds: 1
  containers: [{name: app, image: %s, imagePullPolicy: Never, command: [sleep, "3600"]}]
`, name, realnode.BusyboxImage))
	}
	k.ReadyPods(t, ns, "app=holder", 2)
	host := func(pod string) string {
		return strings.TrimSpace(k.Kubectl(t, "-n", ns, "exec", pod, "--", "hostname"))
	}
	live, gone := "redlock:a-live:analysis_zip", "redlock:a-gone:analysis_zip"
	ctx := context.Background()
	rc := r.Client()
	hostA, hostB := host("holder-a"), host("holder-b")
	before := len(c.Nodes[0].PodPids())
	k.Kubectl(t, "-n", ns, "delete", "pod", "holder-b", "--wait=true", "--timeout=60s")
	if after := len(c.Nodes[0].PodPids()); after >= before {
		t.Fatalf("processes in the node's cgroups: %d before deleting holder-b, %d after", before, after)
	}
	// The locks live 25 s (inspect calls a TTL above 30 s long, not live), from now on.
	if err := rc.Set(ctx, live, "osctl:v1:"+hostA+":1:aaaa:"+ns, 25*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	if err := rc.Set(ctx, gone, "osctl:v1:"+hostB+":1:bbbb:"+ns, 25*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, append([]string{"--redis", r.URL(), "--kubeconfig", k.Kubeconfig, "-n", ns}, args...)...)
		out, err := cmd.Output()
		return string(out), testenv.ExitCode(t, err)
	}
	out, code := run("locks", "inspect", "-o", "json")
	if code != 1 {
		t.Fatalf("inspect exit %d, want 1 (a stale lock): %s", code, out)
	}
	var res struct {
		Locks []struct {
			Key     string                          `json:"key"`
			Verdict struct{ Status, Reason string } `json:"verdict"`
		} `json:"locks"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("inspect -o json: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, v := range res.Locks {
		got[v.Key] = v.Verdict.Status + ": " + v.Verdict.Reason
	}
	if !strings.HasPrefix(got[gone], "stale") || !strings.Contains(got[gone], "holder-b") {
		t.Errorf("lock of the deleted pod: %q, want stale naming holder-b", got[gone])
	}
	if !strings.HasPrefix(got[live], "live") {
		t.Errorf("lock of the running pod: %q, want live", got[live])
	}
	if _, code := run("locks", "break", "--stale", "--yes"); code != 0 {
		t.Fatalf("break --stale exit %d", code)
	}
	if n, _ := rc.Exists(ctx, gone).Result(); n != 0 {
		t.Errorf("the deleted pod's lock is still there")
	}
	if n, _ := rc.Exists(ctx, live).Result(); n != 1 {
		t.Errorf("the running pod's lock was removed")
	}
}
