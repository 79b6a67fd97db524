// Package rollouttest builds the rollout tests' world on the real control plane of
// internal/testenv: a web Deployment with an NFS PersistentVolume, its HPA, pods that show a
// chosen /proc/self/mountinfo as they appear, and stress reports.
package rollouttest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
)

// Image is the image of the test workload.
const Image = "registry.invalid/openstudio-web:3.7.0"

// Mount lines of /proc/self/mountinfo for the shared volume at /mnt/openstudio.
const (
	// NoacMount is what the kernel shows for an NFS mount with noac (sync, attribute cache 0).
	NoacMount = "1001 900 0:77 / /mnt/openstudio rw,relatime shared:500 - nfs4 10.0.0.5:/export rw,sync,vers=4.2,rsize=1048576,wsize=1048576,namlen=255,acregmin=0,acregmax=0,acdirmin=0,acdirmax=0,hard,noac,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=10.0.0.6,local_lock=none,addr=10.0.0.5\n"
	// CachingMount is the same export with the attribute cache on (the kernel's defaults).
	CachingMount = "1001 900 0:77 / /mnt/openstudio rw,relatime shared:500 - nfs4 10.0.0.5:/export rw,vers=4.2,rsize=1048576,wsize=1048576,namlen=255,acregmin=3,acregmax=60,acdirmin=30,acdirmax=60,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=10.0.0.6,local_lock=none,addr=10.0.0.5\n"
	rootMount    = "900 1 0:50 / / rw,relatime - overlay overlay rw,lowerdir=/l,upperdir=/u,workdir=/w\n"
)

// Workload is a web Deployment and its HPA in a fresh namespace.
type Workload struct {
	K  *testenv.Kube
	NS string

	mu      sync.Mutex
	mount   func(pod string) string
	applied map[string]bool
}

// Options shape the workload.
type Options struct {
	Min, Max        int32             // the HPA's range (default 1-1)
	Replicas        int32             // the Deployment's replicas (default Min)
	MinReadySeconds int32             // time for the mountinfo of a new pod to be set before it counts as available
	HPALabels       map[string]string // for Helm/Argo/Flux detection
	HPAAnnotations  map[string]string
	DeployAnnots    map[string]string
}

// New creates namespace, PV, PVC, Deployment web and HPA web, and waits until the Deployment
// has its replicas available.
func New(t *testing.T, k *testenv.Kube, o Options) *Workload {
	t.Helper()
	if o.Min == 0 {
		o.Min = 1
	}
	if o.Max == 0 {
		o.Max = o.Min
	}
	if o.Replicas == 0 {
		o.Replicas = o.Min
	}
	ns := k.NewNamespace(t)
	pv := ns + "-nfs"
	t.Cleanup(func() { _, _ = kubectlQuiet(k, "delete", "pv", pv, "--wait=false") })
	k.Apply(t, "", fmt.Sprintf(`apiVersion: v1
kind: PersistentVolume
metadata: {name: %s}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteMany]
  persistentVolumeReclaimPolicy: Retain
  storageClassName: ""
  mountOptions: [nfsvers=4.2, noac, hard]
  nfs: {server: 10.0.0.5, path: /export}
  claimRef: {namespace: %s, name: shared}
`, pv, ns))
	ctx := context.Background()
	cs := k.Clients.Clientset
	w := &Workload{K: k, NS: ns, applied: map[string]bool{}, mount: func(string) string { return NoacMount }}
	// Pods see the mountinfo the test chose from the moment they exist.
	k.WatchPods(t, ns, w.onPod)

	k.Apply(t, ns, fmt.Sprintf(`apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: shared}
spec:
  accessModes: [ReadWriteMany]
  storageClassName: ""
  volumeName: %s
  resources: {requests: {storage: 1Gi}}
`, pv))
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Annotations: o.DeployAnnots},
		Spec: appsv1.DeploymentSpec{
			Replicas:        &o.Replicas,
			MinReadySeconds: o.MinReadySeconds,
			Selector:        &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{Name: "web", Image: Image,
						VolumeMounts: []corev1.VolumeMount{{Name: "shared", MountPath: "/mnt/openstudio"}}}},
					Volumes: []corev1.Volume{{Name: "shared", VolumeSource: corev1.VolumeSource{
						PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "shared"}}}},
				},
			},
		},
	}
	if _, err := cs.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	labels, _ := json.Marshal(o.HPALabels)
	annots, _ := json.Marshal(o.HPAAnnotations)
	k.Apply(t, ns, fmt.Sprintf(`apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, labels: %s, annotations: %s}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: %d
  maxReplicas: %d
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`, labels, annots, o.Min, o.Max))
	w.WaitSettled(t, o.Replicas, 60*time.Second)
	return w
}

func kubectlQuiet(k *testenv.Kube, args ...string) (string, error) {
	var out []byte
	cmd := append([]string{"--kubeconfig=" + k.Kubeconfig}, args...)
	c := execCommand(filepath.Join(k.BinDir, "kubectl"), cmd...)
	out, err := c.CombinedOutput()
	return string(out), err
}

// SetMount chooses what pods created from now on (and, with existing, the pods there now) see as
// their mountinfo for /mnt/openstudio.
func (w *Workload) SetMount(t *testing.T, fn func(pod string) string, existing bool) {
	t.Helper()
	w.mu.Lock()
	w.mount = fn
	if existing {
		w.applied = map[string]bool{}
	}
	w.mu.Unlock()
	if existing {
		pods, err := w.K.Clients.Clientset.CoreV1().Pods(w.NS).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pods.Items {
			if err := w.applyMount(context.Background(), p.Name); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func (w *Workload) applyMount(ctx context.Context, pod string) error {
	w.mu.Lock()
	fn := w.mount
	w.applied[pod] = true
	w.mu.Unlock()
	return w.K.PutPodMountinfo(ctx, w.NS, pod, rootMount+fn(pod))
}

// onPod gives a pod the chosen mountinfo unless it has it already.
func (w *Workload) onPod(ctx context.Context, pod string) error {
	w.mu.Lock()
	seen := w.applied[pod]
	w.mu.Unlock()
	if seen {
		return nil
	}
	return w.applyMount(ctx, pod)
}

// HPA returns the HPA's range now.
func (w *Workload) HPA(t *testing.T) (min, max int32, annotations map[string]string) {
	t.Helper()
	h, err := w.K.Clients.Clientset.AutoscalingV2().HorizontalPodAutoscalers(w.NS).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return *h.Spec.MinReplicas, h.Spec.MaxReplicas, h.Annotations
}

// Deployment returns the Deployment now.
func (w *Workload) Deployment(t *testing.T) *appsv1.Deployment {
	t.Helper()
	d, err := w.K.Clients.Clientset.AppsV1().Deployments(w.NS).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// WaitSettled waits until the Deployment has n replicas, all updated, ready and available.
func (w *Workload) WaitSettled(t *testing.T, n int32, timeout time.Duration) {
	t.Helper()
	testenv.WaitFor(t, timeout, fmt.Sprintf("Deployment %s/web at %d available replicas", w.NS, n), func() (bool, error) {
		d, err := w.K.Clients.Clientset.AppsV1().Deployments(w.NS).Get(context.Background(), "web", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		s := d.Status
		return *d.Spec.Replicas == n && s.ObservedGeneration >= d.Generation && s.Replicas == n && s.UpdatedReplicas == n && s.ReadyReplicas == n && s.AvailableReplicas == n, nil
	})
}

// Events returns the reasons of the Events osctl recorded on the HPA, oldest first.
func (w *Workload) Events(t *testing.T) []string {
	t.Helper()
	l, err := w.K.Clients.Clientset.CoreV1().Events(w.NS).List(context.Background(), metav1.ListOptions{FieldSelector: "involvedObject.kind=HorizontalPodAutoscaler,source=osctl-rollout"})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range l.Items {
		out = append(out, e.Reason)
	}
	return out
}

// StressReport writes a stress report for the workload and returns its path.
func StressReport(t *testing.T, ns, verdict string, conclusive bool, image string, maxReplicas int, finished time.Time) string {
	t.Helper()
	rep := map[string]any{
		"verdict": verdict, "conclusive": conclusive, "partial": false, "finished_at": finished.UTC().Format(time.RFC3339),
		"workload":               map[string]any{"namespace": ns, "deployment": "web", "image": image, "replicas": maxReplicas},
		"max_replicas_validated": maxReplicas,
	}
	b, _ := json.MarshalIndent(rep, "", "  ")
	p := filepath.Join(t.TempDir(), "stress.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
