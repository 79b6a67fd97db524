package stress

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/stress/report"
)

// TestStatePodAndWorkloadFromRealCluster reads the state through one exec in a pod (kwok runs
// the exec on this host, so the pod's "mount" is the sandbox's state directory) and takes the
// workload's image and replicas from a real API server: the run outside the cluster that an SRE
// makes against the real server.
func TestStatePodAndWorkloadFromRealCluster(t *testing.T) {
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	k.Apply(t, ns, testenv.WebDeployment(1, `containers: [{name: web, image: "registry.invalid/openstudio-server:3.7.0"}]
`))
	ctx := context.Background()
	pod := k.ReadyPods(t, ns, "app=web", 1)[0]
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "none")
	bin := testenv.OsctlBinary(t)
	cmd := exec.CommandContext(ctx, bin, "stress", "--target", strings.Join(sb.Replicas, ","),
		"--requests", "600", "--concurrency", "200", "--analyses", "6", "--mix", "upload=3,start=1",
		"--kubeconfig", k.Kubeconfig, "-n", ns, "--state-pod", pod, "--state-mount", sb.StateDir,
		"--deployment", "web", "-o", "json")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := testenv.ExitCode(t, err)
	var rep report.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("exit %d, no JSON report: %v\n%s", code, err, errb.String())
	}
	if code != 1 || rep.Verdict != "races" {
		t.Fatalf("state read through the pod: exit %d verdict %s findings %v\n%s", code, rep.Verdict, rep.FindingCounts, errb.String())
	}
	b, _ := json.Marshal(rep)
	for _, want := range []string{`"registry.invalid/openstudio-server:3.7.0"`, `"deployment":"web"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("report lacks %s: %s", want, b[:min(len(b), 600)])
		}
	}
}
