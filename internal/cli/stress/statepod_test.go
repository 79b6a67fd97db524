package stress

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/stress/report"
)

// TestStatePodAndWorkloadFromRealCluster reads the state through one exec in a pod (kwok runs
// the exec on this host, so the pod's "mount" is the sandbox's state directory) and takes the
// workload's image and replicas from a real API server: the run outside the cluster that an SRE
// makes against the real server. What the pod read is checked against the same state read
// straight from the directory (`stress judge --state-dir` on the run's history): the same
// verdict and the same findings, so a pod read that missed or garbled files cannot pass. The
// sandbox's workers never wake (--background-interval 1h), so nothing changes the volume between
// the two reads, and the uploads race on the zips.
func TestStatePodAndWorkloadFromRealCluster(t *testing.T) {
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	k.Apply(t, ns, testenv.WebDeployment(1, `containers: [{name: web, image: "registry.invalid/openstudio-server:3.7.0"}]
`))
	ctx := context.Background()
	pod := k.ReadyPods(t, ns, "app=web", 1)[0]
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "none", "--background-interval", "1h")
	bin := testenv.OsctlBinary(t)
	hist := filepath.Join(t.TempDir(), "history.jsonl")
	cmd := exec.CommandContext(ctx, bin, "stress", "--target", strings.Join(sb.Replicas, ","),
		"--requests", "2000", "--concurrency", "500", "--analyses", "20", "--background-wait", "0", "--settle-timeout", "5s",
		"--kubeconfig", k.Kubeconfig, "-n", ns, "--state-pod", pod, "--state-mount", sb.StateDir,
		"--deployment", "web", "--history", hist, "-o", "json")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := testenv.ExitCode(t, err)
	var rep report.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("exit %d, no JSON report: %v\n%s", code, err, errb.String())
	}
	if code != 1 || rep.Verdict != "races" {
		t.Errorf("state read through the pod of an unlocked sandbox: exit %d verdict %s findings %v, want exit 1 races\n%s", code, rep.Verdict, rep.FindingCounts, errb.String())
	}
	b, _ := json.Marshal(rep)
	for _, want := range []string{`"registry.invalid/openstudio-server:3.7.0"`, `"deployment":"web"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("report lacks %s: %s", want, b[:min(len(b), 600)])
		}
	}

	jout, jerr := exec.Command(bin, "stress", "judge", "--history", hist, "--state-dir", sb.StateDir, "-o", "json").Output()
	jcode := testenv.ExitCode(t, jerr)
	var direct report.Report
	if err := json.Unmarshal(jout, &direct); err != nil {
		t.Fatalf("judge --state-dir exited %d without a JSON report: %v", jcode, err)
	}
	if jcode != code || direct.Verdict != rep.Verdict || !reflect.DeepEqual(direct.FindingCounts, rep.FindingCounts) {
		t.Fatalf("the pod read: exit %d %s %v; the directory read: exit %d %s %v", code, rep.Verdict, rep.FindingCounts, jcode, direct.Verdict, direct.FindingCounts)
	}
	viaPod, _ := json.Marshal(rep.Findings)
	viaDir, _ := json.Marshal(direct.Findings)
	if !bytes.Equal(viaPod, viaDir) {
		t.Errorf("findings differ between the pod read and the directory read:\n pod: %.1500s\n dir: %.1500s", viaPod, viaDir)
	}
}
