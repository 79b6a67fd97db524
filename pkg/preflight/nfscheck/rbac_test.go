package nfscheck_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/kubeconfig"
	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/nfscheck"
)

// TestLiveRBACDocSuffices runs the live check as a ServiceAccount bound only to the ClusterRole
// in docs/migration/rbac-preflight.yaml: nothing may come back forbidden.
func TestLiveRBACDocSuffices(t *testing.T) {
	t.Parallel()
	k, ns, pods := setupLive(t, liveSpec{replicas: 1, pvOptions: []string{"noac"}, scOptions: []string{"noac"}})
	k.SetPodMountinfo(t, ns, pods[0].Name, readTestdata(t, "pod-noac.txt"))
	b, err := os.ReadFile("../../../docs/migration/rbac-preflight.yaml")
	if err != nil {
		t.Fatal(err)
	}
	role := strings.SplitN(string(b), "\n---\n", 2)[0]
	if !strings.Contains(role, "kind: ClusterRole") {
		t.Fatal("the first document of rbac-preflight.yaml must be the ClusterRole")
	}
	k.Apply(t, "", role)
	k.Kubectl(t, "-n", ns, "create", "serviceaccount", "osctl")
	k.Kubectl(t, "create", "clusterrolebinding", "osctl-preflight-"+ns, "--clusterrole=osctl-preflight", fmt.Sprintf("--serviceaccount=%s:osctl", ns))
	t.Cleanup(func() { k.Kubectl(t, "delete", "clusterrolebinding", "osctl-preflight-"+ns) })
	kc, err := kubeconfig.Load(k8s.Config{Kubeconfig: k.ServiceAccountKubeconfig(t, ns, "osctl")})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := nfscheck.CheckWorkload(context.Background(), kc, ns, "web", "/mnt/openstudio")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Status == preflight.Unknown || strings.Contains(strings.ToLower(r.Message), "forbidden") {
			t.Errorf("the documented ClusterRole is not enough: %s %s %s", r.ID, r.Subject, r.Message)
		}
	}
	must(t, rs, nfscheck.RulePVOptions, "", preflight.Pass)
	must(t, rs, nfscheck.RuleNoac, "pod/"+pods[0].Name, preflight.Pass)
}
