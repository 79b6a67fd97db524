package testenv

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/redisproc"
)

func TestMain(m *testing.M) { os.Exit(RunMain(m)) }

// TestKubeHarness checks what the rollout and preflight tests rely on: the HPA controller
// scales a Deployment, kwok makes its pods Ready, exec in a pod shows the mountinfo the test
// chose (with and without cat), and a port-forward reaches a real redis-server.
func TestKubeHarness(t *testing.T) {
	k := SharedKube(t)
	ns := k.NewNamespace(t)
	k.Apply(t, ns, WebDeployment(1, `containers:
- name: web
  image: registry.invalid/web:1
  ports: [{name: redis, containerPort: 6379}]`)+`---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 2
---
apiVersion: v1
kind: Service
metadata: {name: queue}
spec:
  selector: {app: web}
  ports: [{port: 6379, targetPort: redis}]
`)
	ctx := context.Background()
	cs := k.Clients.Clientset
	WaitFor(t, 60*time.Second, "2 available replicas", func() (bool, error) {
		d, err := cs.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return d.Status.AvailableReplicas == 2, nil
	})
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil || len(pods.Items) < 2 {
		t.Fatalf("pods: %v (%d)", err, len(pods.Items))
	}
	p0, p1 := pods.Items[0].Name, pods.Items[1].Name
	const mi = "27 22 0:25 / /mnt/openstudio rw,relatime - nfs 127.0.0.2:/export rw,sync,vers=3,noac,local_lock=none,addr=127.0.0.2\n"
	k.SetPodMountinfo(t, ns, p0, mi)
	if out := k.Kubectl(t, "-n", ns, "exec", p0, "--", "cat", "/proc/self/mountinfo"); out != mi {
		t.Fatalf("exec cat in %s = %q, want the chosen mountinfo", p0, out)
	}
	k.SetPodNoCat(t, ns, p1, mi)
	if out, err := k.kubectl(nil, "-n", ns, "exec", p1, "--", "cat", "/proc/self/mountinfo"); err == nil {
		t.Fatalf("cat should fail in a pod without cat, got %q", out)
	}
	out := k.Kubectl(t, "-n", ns, "exec", p1, "--", "sh", "-c", `while read -r l; do echo "$l"; done </proc/self/mountinfo`)
	if !strings.Contains(out, "/mnt/openstudio") {
		t.Fatalf("sh fallback = %q", out)
	}
	r := StartRedis(t)
	if err := r.Client().Set(ctx, "via-forward", "yes", 0).Err(); err != nil {
		t.Fatal(err)
	}
	k.ForwardPodPort(t, ns, p0, 6379, r.Addr)
	k.ForwardPodPort(t, ns, p1, 6379, r.Addr)
	var got string
	WaitFor(t, 20*time.Second, "redis through a port-forward to Service queue", func() (bool, error) {
		fw, err := k8s.ForwardService(ctx, k.Clients, ns, "queue", 6379)
		if err != nil {
			return false, err
		}
		defer fw.Close()
		c := redis.NewClient(&redis.Options{Addr: fw.LocalAddr, MaxRetries: -1})
		defer c.Close()
		got, err = c.Get(ctx, "via-forward").Result()
		return err == nil, nil
	})
	if got != "yes" {
		t.Fatalf("GET through the forward = %q", got)
	}
}

// TestDiagnoseSaysWhatRuns: what a timed-out pod wait prints names each component running, the
// scheduler's health and queue as the scheduler itself reports them, and both nodes Ready.
func TestDiagnoseSaysWhatRuns(t *testing.T) {
	k := SharedKube(t)
	d := k.Diagnose()
	for _, want := range []string{"kube-scheduler running", "kwok running", "kube-controller-manager running",
		"healthz: 200 ok", `pending pods {queue="active"} 0`, "node kwok-node-0: Ready=True", "node kwok-node-1: Ready=True"} {
		if !strings.Contains(d, want) {
			t.Errorf("no %q in:\n%s", want, d)
		}
	}
	if strings.Contains(d, "EXITED") {
		t.Errorf("a component exited:\n%s", d)
	}
}

// TestComponentsStartAgainWhenTheirPortIsTaken: the controller manager, the scheduler and kwok
// are each given first a port that another listener holds (as another test binary may take a
// free port before the component listens on it). Each exits on it; the control plane still comes
// up, with each on another port, and schedules a pod onto a kwok node that makes it Ready.
func TestComponentsStartAgainWhenTheirPortIsTaken(t *testing.T) {
	SkipIfShort(t, "the kube-apiserver harness")
	_, ok := KubeBinDir()
	Require(t, ok, "Kubernetes control plane binaries (run scripts/k8s-build.sh)")
	taken := map[string]int{}
	o := ControlPlane{Kwok: true, freePort: func(component string) (int, error) {
		if _, done := taken[component]; done || component == "etcd" || component == "etcd-peer" || component == "kube-apiserver" {
			return redisproc.FreePort()
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		t.Cleanup(func() { l.Close() })
		taken[component] = l.Addr().(*net.TCPAddr).Port
		return taken[component], nil
	}}
	dir := t.TempDir()
	k, err := StartControlPlane(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Stop)
	for _, c := range []string{"kube-controller-manager", "kube-scheduler", "kwok"} {
		b, err := os.ReadFile(filepath.Join(dir, "logs", c+".log.port-taken-1"))
		if want := fmt.Sprintf("127.0.0.1:%d: bind: address already in use", taken[c]); err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: the first start's log (%v) does not say %q", c, err, want)
		}
	}
	if d := k.Diagnose(); strings.Contains(d, "EXITED") || !strings.Contains(d, "healthz: 200 ok") {
		t.Errorf("after the retries:\n%s", d)
	}
	ns := k.NewNamespace(t)
	k.Apply(t, ns, WebDeployment(1, "containers: [{name: web, image: registry.invalid/web:1}]"))
	pod := k.ReadyPods(t, ns, "app=web", 1)[0]
	p, err := k.Clients.Clientset.CoreV1().Pods(ns).Get(context.Background(), pod, metav1.GetOptions{})
	if err != nil || !strings.HasPrefix(p.Spec.NodeName, "kwok-node-") {
		t.Fatalf("pod %s: node %q, %v; want a kwok node", pod, p.Spec.NodeName, err)
	}
}
