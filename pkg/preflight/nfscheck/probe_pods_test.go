package nfscheck_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/nfscheck"
)

// probePods starts a two-replica Deployment mounting an emptyDir at dir (kwok runs exec on
// this host, so both pods see the host directory dir) and returns its two ready pods. spread
// places them on two nodes, else both go to kwok-node-0.
func probePods(t *testing.T, dir string, spread bool) (*testenv.Kube, string, []corev1.Pod) {
	t.Helper()
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	placement := `nodeSelector: {kubernetes.io/hostname: kwok-node-0}`
	if spread {
		placement = testenv.SpreadWebPods
	}
	k.Apply(t, ns, testenv.WebDeployment(2, testenv.WebOnSharedDir(placement, dir)))
	var pods []corev1.Pod
	for _, name := range k.ReadyPods(t, ns, "app=web", 2) {
		p, err := k.Clients.Clientset.CoreV1().Pods(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pods = append(pods, *p)
	}
	return k, ns, pods
}

func TestProbePodsOnTwoNodesPasses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	k, ns, pods := probePods(t, dir, true)
	if pods[0].Spec.NodeName == pods[1].Spec.NodeName {
		t.Fatalf("anti-affinity did not spread the pods: both on %s", pods[0].Spec.NodeName)
	}
	rs, err := nfscheck.ProbePods(context.Background(), k.Clients, ns, pods[0].Name, pods[1].Name, "", dir,
		nfscheck.ProbeOptions{Timeout: 3 * time.Second, Settle: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	must(t, rs, nfscheck.RuleProbeClients, "", preflight.Pass)
	for _, pair := range [][2]string{{pods[1].Name, pods[0].Name}, {pods[0].Name, pods[1].Name}} {
		subject := fmt.Sprintf("reader pod/%s (writer pod/%s)", pair[0], pair[1])
		for _, id := range []string{nfscheck.RuleProbeSize, nfscheck.RuleProbeNewFile, nfscheck.RuleProbeMtime} {
			r := must(t, rs, id, subject, preflight.Pass)
			if !strings.HasPrefix(r.Message, "fresh") {
				t.Errorf("%s: %s", id, r.Message)
			}
		}
	}
	must(t, rs, nfscheck.RuleProbeFlock, "", preflight.Info)
	// The probe removed its files.
	left, err := filepath.Glob(filepath.Join(dir, ".osctl-probe-*"))
	if err != nil || len(left) != 0 {
		t.Errorf("probe left %v (%v)", left, err)
	}
}

func TestProbePodsOnOneNodeWarns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	k, ns, pods := probePods(t, dir, false)
	rs, err := nfscheck.ProbePods(context.Background(), k.Clients, ns, pods[0].Name, pods[1].Name, "web", dir, nfscheck.ProbeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := must(t, rs, nfscheck.RuleProbeClients, "", preflight.Warn)
	if !strings.Contains(r.Message, "kwok-node-0") || len(rs) != 1 {
		t.Fatalf("want one WARN naming the node:\n%s", dump(rs))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("same-node probe should not write, found %d entries", len(entries))
	}
}

func TestProbePodsMissingPod(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	_, err := nfscheck.ProbePods(context.Background(), k.Clients, ns, "nope-a", "nope-b", "", "/mnt/openstudio", nfscheck.ProbeOptions{})
	if err == nil || !strings.Contains(err.Error(), "nope-a") || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("want not found naming the pod, got %v", err)
	}
}
