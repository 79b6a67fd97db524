package ops_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.RunMain(m)) }

// TestHolderPodGoneAgainstRealCluster: with a kubeconfig, a lock whose osctl holder value names a
// pod that no longer exists is stale, one held by a running pod is live, and `locks break
// --stale` removes only the first. Runs the real binary against a real API server and Redis.
func TestHolderPodGoneAgainstRealCluster(t *testing.T) {
	// The binary is built first: the locks below live 20 s, and a build on a busy machine can
	// take longer than that.
	bin := testenv.OsctlBinary(t)
	k := testenv.SharedKube(t)
	r := testenv.StartRedis(t)
	ns := k.NewNamespace(t)
	k.Apply(t, ns, testenv.WebDeployment(1, `containers: [{name: web, image: registry.invalid/web:1}]`))
	ctx := context.Background()
	pod := k.ReadyPods(t, ns, "app=web", 1)[0]
	c := r.Client()
	live, gone := "redlock:a-live:analysis_zip", "redlock:a-gone:analysis_zip"
	if err := c.Set(ctx, live, "osctl:v1:"+pod+":101:aaaa", 20*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(ctx, gone, "osctl:v1:web-5d9f8-gone:102:bbbb", 20*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, append([]string{"--redis", r.URL(), "--kubeconfig", k.Kubeconfig, "-n", ns}, args...)...)
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	out, code := run("locks", "inspect", "-o", "json")
	if code != 1 {
		t.Fatalf("inspect exit %d, want 1 (a stale lock): %s", code, out)
	}
	var res struct {
		Locks []struct {
			Key     string `json:"key"`
			Verdict struct {
				Status, Reason string
			} `json:"verdict"`
		} `json:"locks"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("inspect -o json: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, v := range res.Locks {
		got[v.Key] = v.Verdict.Status + ": " + v.Verdict.Reason
	}
	if !strings.HasPrefix(got[gone], "stale") || !strings.Contains(got[gone], "web-5d9f8-gone") {
		t.Errorf("lock of a deleted pod: %q, want stale naming the pod", got[gone])
	}
	if !strings.HasPrefix(got[live], "live") {
		t.Errorf("lock of a running pod: %q, want live", got[live])
	}
	if _, code := run("locks", "break", "--stale", "--yes"); code != 0 {
		t.Fatalf("break --stale exit %d", code)
	}
	if n, _ := c.Exists(ctx, gone).Result(); n != 0 {
		t.Errorf("the deleted pod's lock is still there")
	}
	if n, _ := c.Exists(ctx, live).Result(); n != 1 {
		t.Errorf("the running pod's lock was removed")
	}
}
