package stress

import (
	"bytes"
	"encoding/json"
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
// the two reads, and the uploads race on the zips: written in 512-byte pieces (--upload-chunk), so
// that overlapping writes tear a zip on a loaded machine too (at 4 KiB one run on a loaded
// 2-core machine tore none, another one; at 512 bytes runs tore 7 and 10).
func TestStatePodAndWorkloadFromRealCluster(t *testing.T) {
	t.Parallel() // kwok pods in a namespace of its own and a sandbox of its own: it overlaps the other parallel tests
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	k.Apply(t, ns, testenv.WebDeployment(1, `containers: [{name: web, image: "registry.invalid/openstudio-server:3.7.0"}]
`))
	pod := k.ReadyPods(t, ns, "app=web", 1)[0]
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "none", "--background-interval", "1h", "--upload-chunk", "512")
	hist := filepath.Join(t.TempDir(), "history.jsonl")
	r := runOsctl(t, "stress", "--target", strings.Join(sb.Replicas, ","),
		"--requests", "2000", "--concurrency", "500", "--analyses", "20", "--background-wait", "0", "--settle-timeout", "5s",
		"--kubeconfig", k.Kubeconfig, "-n", ns, "--state-pod", pod, "--state-mount", sb.StateDir,
		"--deployment", "web", "--history", hist, "-o", "json")
	code := r.Code
	var rep report.Report
	r.Decode(t, &rep)
	if code != 1 || rep.Verdict != "races" {
		t.Errorf("state read through the pod of an unlocked sandbox: exit %d verdict %s findings %v, want exit 1 races\n%s", code, rep.Verdict, rep.FindingCounts, r.Stderr)
	}
	b, _ := json.Marshal(rep)
	for _, want := range []string{`"registry.invalid/openstudio-server:3.7.0"`, `"deployment":"web"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("report lacks %s: %s", want, b[:min(len(b), 600)])
		}
	}

	j := runOsctl(t, "stress", "judge", "--history", hist, "--state-dir", sb.StateDir, "-o", "json")
	jcode := j.Code
	var direct report.Report
	j.Decode(t, &direct)
	if jcode != code || direct.Verdict != rep.Verdict || !reflect.DeepEqual(direct.FindingCounts, rep.FindingCounts) {
		t.Fatalf("the pod read: exit %d %s %v; the directory read: exit %d %s %v", code, rep.Verdict, rep.FindingCounts, jcode, direct.Verdict, direct.FindingCounts)
	}
	viaPod, _ := json.Marshal(rep.Findings)
	viaDir, _ := json.Marshal(direct.Findings)
	if !bytes.Equal(viaPod, viaDir) {
		t.Errorf("findings differ between the pod read and the directory read:\n pod: %.1500s\n dir: %.1500s", viaPod, viaDir)
	}
}
