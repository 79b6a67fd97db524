package nfscheck_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/setting"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/nfscheck"
)

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// liveCluster is one namespace with a web Deployment of n replicas mounting claim nfs-pvc
// (bound to PV pvName with mountOptions) at /mnt/openstudio, or an inline nfs volume.
type liveSpec struct {
	replicas     int
	pvOptions    []string
	scOptions    []string
	scProvisoner string
	inline       bool
}

func setupLive(t *testing.T, s liveSpec) (*testenv.Kube, string, []corev1.Pod) {
	t.Helper()
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	pv := "pv-" + ns
	sc := "nfs-" + ns
	if s.scProvisoner == "" {
		s.scProvisoner = "example.com/nfs"
	}
	quote := func(ss []string) string {
		q := make([]string, len(ss))
		for i, x := range ss {
			q[i] = fmt.Sprintf("%q", x)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	volume := `persistentVolumeClaim: {claimName: nfs-pvc}`
	if s.inline {
		volume = `nfs: {server: 10.0.12.7, path: /export}`
	} else {
		k.Apply(t, "", fmt.Sprintf(`apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: %s}
provisioner: %s
mountOptions: %s
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: %s}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteMany]
  storageClassName: %s
  mountOptions: %s
  nfs: {server: 10.0.12.7, path: /export/pvc-6c1f}
  claimRef: {namespace: %s, name: nfs-pvc}
`, sc, s.scProvisoner, quote(s.scOptions), pv, sc, quote(s.pvOptions), ns))
		t.Cleanup(func() { k.Kubectl(t, "delete", "pv", pv, "--wait=false"); k.Kubectl(t, "delete", "storageclass", sc) })
		k.Apply(t, ns, fmt.Sprintf(`apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: nfs-pvc}
spec:
  accessModes: [ReadWriteMany]
  storageClassName: %s
  volumeName: %s
  resources: {requests: {storage: 1Gi}}
`, sc, pv))
	}
	k.Apply(t, ns, testenv.WebDeployment(s.replicas, fmt.Sprintf(`containers:
- name: web
  image: nrel/openstudio-server:3.7.0
  volumeMounts: [{name: nfs, mountPath: /mnt/openstudio}]
- name: sidecar
  image: busybox
volumes:
- name: nfs
  %s
`, volume)))
	var pods []corev1.Pod
	testenv.WaitFor(t, 60*time.Second, fmt.Sprintf("%d ready web pods", s.replicas), func() (bool, error) {
		l, err := k.Clients.Clientset.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "app=web"})
		if err != nil {
			return false, err
		}
		pods = pods[:0]
		for _, p := range l.Items {
			for _, c := range p.Status.Conditions {
				if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
					pods = append(pods, p)
				}
			}
		}
		return len(pods) == s.replicas, nil
	})
	return k, ns, pods
}

func find(rs []preflight.Result, id, subject string) (preflight.Result, bool) {
	for _, r := range rs {
		if r.ID == id && (subject == "" || r.Subject == subject) {
			return r, true
		}
	}
	return preflight.Result{}, false
}

func must(t *testing.T, rs []preflight.Result, id, subject string, want preflight.Status) preflight.Result {
	t.Helper()
	r, ok := find(rs, id, subject)
	if !ok {
		t.Fatalf("no result %s for %q in:\n%s", id, subject, dump(rs))
	}
	if r.Status != want {
		t.Fatalf("%s %s: status %s, want %s: %s\nall:\n%s", id, subject, r.Status, want, r.Message, dump(rs))
	}
	return r
}

func dump(rs []preflight.Result) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "  %-7s %-20s %-30s %s\n", r.Status, r.ID, r.Subject, r.Message)
	}
	return b.String()
}

func TestLivePodsAgreeOnNoac(t *testing.T) {
	t.Parallel()
	k, ns, pods := setupLive(t, liveSpec{replicas: 2, pvOptions: []string{"vers=3", "noac"}, scOptions: []string{"vers=3", "noac"}})
	for _, p := range pods {
		k.SetPodMountinfo(t, ns, p.Name, readTestdata(t, "pod-noac.txt"))
	}
	rs, err := nfscheck.CheckWorkload(context.Background(), k.Clients, ns, "web", "/mnt/openstudio")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods {
		r := must(t, rs, nfscheck.RuleNoac, "pod/"+p.Name, preflight.Pass)
		if !strings.Contains(r.Message, "0 s") {
			t.Errorf("noac message should give the effective seconds: %s", r.Message)
		}
	}
	must(t, rs, nfscheck.RulePodsAgree, "deployment/web", preflight.Pass)
	must(t, rs, nfscheck.RulePVOptions, "", preflight.Pass)
	if preflight.Failed(rs) {
		t.Fatalf("unexpected FAIL:\n%s", dump(rs))
	}
}

func TestLivePodsDisagree(t *testing.T) {
	t.Parallel()
	k, ns, pods := setupLive(t, liveSpec{replicas: 2, pvOptions: []string{"vers=3", "noac"}})
	k.SetPodMountinfo(t, ns, pods[0].Name, readTestdata(t, "pod-noac.txt"))
	k.SetPodMountinfo(t, ns, pods[1].Name, readTestdata(t, "pod-actimeo60.txt"))
	rs, err := nfscheck.CheckWorkload(context.Background(), k.Clients, ns, "web", "/mnt/openstudio")
	if err != nil {
		t.Fatal(err)
	}
	must(t, rs, nfscheck.RuleNoac, "pod/"+pods[0].Name, preflight.Pass)
	r := must(t, rs, nfscheck.RuleNoac, "pod/"+pods[1].Name, preflight.Fail)
	if !strings.Contains(r.Message, "60 s") {
		t.Errorf("caching pod should report 60 s: %s", r.Message)
	}
	d := must(t, rs, nfscheck.RulePodsAgree, "deployment/web", preflight.Fail)
	if !strings.Contains(d.Message, pods[0].Name) || !strings.Contains(d.Message, pods[1].Name) {
		t.Errorf("disagreement should name both pods: %s", d.Message)
	}
}

func TestLiveDistrolessFallsBackToSh(t *testing.T) {
	t.Parallel()
	k, ns, pods := setupLive(t, liveSpec{replicas: 1, pvOptions: []string{"noac"}})
	k.SetPodNoCat(t, ns, pods[0].Name, readTestdata(t, "pod-noac.txt"))
	rs, err := nfscheck.CheckWorkload(context.Background(), k.Clients, ns, "web", "/mnt/openstudio")
	if err != nil {
		t.Fatal(err)
	}
	r := must(t, rs, nfscheck.RuleMount, "pod/"+pods[0].Name, preflight.Pass)
	if !strings.Contains(r.Message, "read with sh") {
		t.Errorf("the mount should have been read with sh: %s", r.Message)
	}
	must(t, rs, nfscheck.RuleNoac, "pod/"+pods[0].Name, preflight.Pass)
}

func TestLivePVWithoutNoacAndGanesha(t *testing.T) {
	t.Parallel()
	k, ns, pods := setupLive(t, liveSpec{replicas: 1, pvOptions: []string{"vers=3", "sync"}, scOptions: []string{"vers=3", "noac"},
		scProvisoner: "cluster.local/osrel-nfs-server-provisioner"})
	k.SetPodMountinfo(t, ns, pods[0].Name, readTestdata(t, "pod-noac.txt"))
	rs, err := nfscheck.CheckWorkload(context.Background(), k.Clients, ns, "web", "/mnt/openstudio")
	if err != nil {
		t.Fatal(err)
	}
	// One replica, default strategy (25% surge rounds up to one more pod): FAIL.
	r := must(t, rs, nfscheck.RulePVOptions, "pv/pv-"+ns, preflight.Fail)
	if !strings.Contains(r.Fix, "kubectl patch pv") {
		t.Errorf("fix should patch the PV: %s", r.Fix)
	}
	sc := must(t, rs, nfscheck.RuleSCOptions, "storageclass/nfs-"+ns, preflight.Info)
	if !strings.Contains(sc.Message, "does not change") && !strings.Contains(sc.Message, "changed nothing") {
		t.Errorf("StorageClass note should say changing it does not change the PV: %s", sc.Message)
	}
	must(t, rs, nfscheck.RuleGanesha, "deployment/web", preflight.Warn)
}

func TestLiveInlineNFSVolume(t *testing.T) {
	t.Parallel()
	k, ns, pods := setupLive(t, liveSpec{replicas: 1, inline: true})
	k.SetPodMountinfo(t, ns, pods[0].Name, readTestdata(t, "pod-actimeo60.txt"))
	rs, err := nfscheck.CheckWorkload(context.Background(), k.Clients, ns, "web", "/mnt/openstudio")
	if err != nil {
		t.Fatal(err)
	}
	must(t, rs, nfscheck.RuleInline, "deployment/web", preflight.Fail)
	must(t, rs, nfscheck.RuleNoac, "pod/"+pods[0].Name, preflight.Fail)
}

func TestLiveMissingWorkloadIsAnError(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	_, err := nfscheck.CheckWorkload(context.Background(), k.Clients, ns, "nope", "/mnt/openstudio")
	if se, ok := setting.As(err); !ok || se.Name != "Workload" || !strings.Contains(err.Error(), "deployment "+ns+"/nope not found") {
		t.Fatalf("want a not-found error naming the Workload setting, got %v", err)
	}
}
