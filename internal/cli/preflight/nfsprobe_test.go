package preflight_test

import (
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/preflight"
)

func TestNFSProbePodsThroughFlags(t *testing.T) {
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	dir := t.TempDir()
	k.Apply(t, ns, testenv.WebDeployment(2, testenv.WebOnSharedDir(testenv.SpreadWebPods, dir)))
	pods := k.ReadyPods(t, ns, "app=web", 2)
	out, errOut, code := run(t, "", "nfs", "--kubeconfig", k.Kubeconfig, "-n", ns, "--path", dir,
		"--probe-pods", pods[0]+","+pods[1], "--probe-timeout", "3s", "-o", "json")
	r := parse(t, out)
	if code != 0 || !has(r, "nfs", "nfs.probe.clients", preflight.Pass) || !has(r, "nfs", "nfs.probe.size", preflight.Pass) ||
		!has(r, "nfs", "nfs.probe.new-file", preflight.Pass) || !has(r, "nfs", "nfs.probe.mtime", preflight.Pass) {
		t.Fatalf("exit %d %s\n%s", code, errOut, out)
	}
	_, errOut, code = run(t, "", "nfs", "--kubeconfig", k.Kubeconfig, "-n", ns, "--path", dir, "--probe-pods", pods[0]+",nope")
	if code != 2 || !strings.Contains(errOut, "nope") || !strings.Contains(errOut, "not found") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Fatalf("missing pod: want exit 2 and one line, got %d %q", code, errOut)
	}
	_, errOut, code = run(t, "", "nfs", "--probe-pods", pods[0])
	if code != 2 || !strings.Contains(errOut, "--probe-pods") {
		t.Fatalf("one pod: want a usage error, got %d %q", code, errOut)
	}
}
