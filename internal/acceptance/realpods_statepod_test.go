//go:build linux

package acceptance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv/realnode"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/stress/report"
)

// TestStatePodOnARealPod reads a run's state through one real exec in a real pod of two
// containers, whose volume is the sandbox's state directory (a hostPath): the pod's first
// container does not mount it, and the pod's kubectl.kubernetes.io/default-container annotation
// names the second, which does. Without --state-container osctl must name that container itself:
// a real API server refuses an exec without one into a pod of several containers, and the first
// container has no /mnt/openstudio. What the pod read is checked against `stress judge
// --state-dir` of the same files from this machine: the same verdict and findings.
func TestStatePodOnARealPod(t *testing.T) {
	c := realnode.Shared(t)
	ns := c.Kube.NewNamespace(t)
	sb := sandboxenv.Start(t, "--replicas", "3", "--locking", "none", "--background-interval", "1h", "--upload-chunk", "512")
	c.Kube.Apply(t, ns, fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata:
  name: state
  labels: {app: state}
  annotations: {kubectl.kubernetes.io/default-container: reader}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - {name: sidecar, image: %[1]s, imagePullPolicy: Never, command: [sleep, "3600"]}
  - name: reader
    image: %[1]s
    imagePullPolicy: Never
    command: [sleep, "3600"]
    volumeMounts: [{name: state, mountPath: /mnt/openstudio}]
  volumes: [{name: state, hostPath: {path: %[2]q, type: Directory}}]
`, realnode.BusyboxImage, sb.StateDir))
	c.Kube.ReadyPods(t, ns, "app=state", 1)

	// A racy load tears some zips; on a loaded machine one load may happen to tear none (no
	// finding, and no extraction to judge: the workers never run), so up to three are sent.
	var hist string
	var code int
	var rep report.Report
	for load := 1; ; load++ {
		hist = filepath.Join(t.TempDir(), "history.jsonl")
		r := runOsctl(t, "stress", "--target", strings.Join(sb.Replicas, ","),
			"--requests", "2000", "--concurrency", "500", "--analyses", "20", "--background-wait", "0", "--settle-timeout", "5s",
			"--kubeconfig", c.Kube.Kubeconfig, "-n", ns, "--state-pod", "state",
			"--history", hist, "-o", "json")
		code, rep = r.Code, report.Report{}
		r.Decode(t, &rep)
		if code == 1 && rep.Verdict == "races" {
			break
		}
		if load == 3 || (code != 2 && code != 0) {
			t.Fatalf("state read through a real pod of an unlocked sandbox, load %d: exit %d verdict %s findings %v, want exit 1 races\n%s", load, code, rep.Verdict, rep.FindingCounts, r.Stderr)
		}
		t.Logf("load %d found no race (exit %d, %s %v): another load", load, code, rep.Verdict, rep.Reasons)
	}
	j := runOsctl(t, "stress", "judge", "--history", hist, "--state-dir", sb.StateDir, "-o", "json")
	var direct report.Report
	j.Decode(t, &direct)
	if j.Code != code || direct.Verdict != rep.Verdict || !reflect.DeepEqual(direct.FindingCounts, rep.FindingCounts) {
		t.Fatalf("the pod read: exit %d %s %v; the directory read: exit %d %s %v", code, rep.Verdict, rep.FindingCounts, j.Code, direct.Verdict, direct.FindingCounts)
	}
	viaPod, _ := json.Marshal(rep.Findings)
	viaDir, _ := json.Marshal(direct.Findings)
	if !bytes.Equal(viaPod, viaDir) {
		t.Errorf("findings differ between the pod read and the directory read:\n pod: %.1500s\n dir: %.1500s", viaPod, viaDir)
	}
}
