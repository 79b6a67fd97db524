//go:build linux

package realnode

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/k8s"
)

// WebPort is the port the web pods serve on (their first container port, the Service's target).
const WebPort = 8080

// WebTierOptions say how StartWebTier runs the web tier.
type WebTierOptions struct {
	Replicas int      // web pods (default 3)
	Locking  string   // the sandbox's --locking (default none: the app as it is)
	Args     []string // more `osctl sandbox serve` flags, e.g. --upload-chunk 512
}

// WebTier is the sandbox's web tier in real pods: Redis in a pod behind Service redis, and a
// Deployment web of real pods running osctl's image with `osctl sandbox serve --pod`, which
// share one hostPath volume (StateDir, this machine's directory) as /mnt/openstudio, with a
// readiness probe on GET /status, labels app=web and Service web (port 80 to WebPort).
type WebTier struct {
	Cluster   *Cluster
	Namespace string
	StateDir  string
	Selector  string // app=web
}

// StartWebTier deploys the web tier in namespace ns and waits until its pods are Ready. The
// namespace's deletion (Kube.NewNamespace) removes it; the state directory is the test's.
func (c *Cluster) StartWebTier(t testing.TB, ns string, o WebTierOptions) *WebTier {
	t.Helper()
	if o.Replicas <= 0 {
		o.Replicas = 3
	}
	if o.Locking == "" {
		o.Locking = "none"
	}
	w := &WebTier{Cluster: c, Namespace: ns, StateDir: t.TempDir(), Selector: "app=web"}
	// The pods write as user 65532 (osctl's image); this machine reads as root.
	if err := os.Chmod(w.StateDir, 0o777); err != nil {
		t.Fatal(err)
	}
	c.Kube.Apply(t, ns, redisManifest())
	c.Kube.ReadyPods(t, ns, "app=redis", 1)
	svc, err := c.Kube.Clients.Clientset.CoreV1().Services(ns).Get(context.Background(), "redis", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("Service redis: %v", err)
	}
	// No cluster DNS on these nodes: the pods reach Redis at its ClusterIP, through kube-proxy.
	redis := fmt.Sprintf("redis://%s:6379", svc.Spec.ClusterIP)
	c.Kube.Apply(t, ns, webManifest(o, w.StateDir, redis))
	c.Kube.ReadyPods(t, ns, w.Selector, o.Replicas)
	return w
}

func redisManifest() string {
	return fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata: {name: redis, labels: {app: redis}}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: redis
    image: %s
    imagePullPolicy: Never
    ports: [{containerPort: 6379, name: redis}]
    readinessProbe: {tcpSocket: {port: 6379}, periodSeconds: 1}
---
apiVersion: v1
kind: Service
metadata: {name: redis}
spec:
  selector: {app: redis}
  ports: [{port: 6379, targetPort: 6379}]
`, RedisImage)
}

// webManifest is the web Deployment and its Service: every pod runs replica 0 of 1 (a
// Deployment's pods are alike), with the Redis URL in OSCTL_REDIS and its own name and namespace
// from the downward API, as its locks' holder.
func webManifest(o WebTierOptions, stateDir, redis string) string {
	args := []string{"sandbox", "serve", "--pod", "--listen", fmt.Sprintf(":%d", WebPort), "--dir", "/mnt/openstudio", "--locking", o.Locking}
	args = append(args, o.Args...)
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: %[1]d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      terminationGracePeriodSeconds: 2
      containers:
      - name: web
        image: %[2]s
        imagePullPolicy: Never
        args: [%[3]s]
        ports: [{containerPort: %[4]d, name: http}]
        env:
        - {name: OSCTL_REDIS, value: %[5]q}
        - {name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
        - {name: POD_NAMESPACE, valueFrom: {fieldRef: {fieldPath: metadata.namespace}}}
        readinessProbe: {httpGet: {path: /status, port: http}, periodSeconds: 1, failureThreshold: 2}
        volumeMounts: [{name: state, mountPath: /mnt/openstudio}]
      volumes: [{name: state, hostPath: {path: %[6]q, type: Directory}}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: http}]
`, o.Replicas, OsctlImage, quoteAll(args), WebPort, redis, stateDir)
}

func quoteAll(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = fmt.Sprintf("%q", a)
	}
	return strings.Join(q, ", ")
}

// Pods returns the names of the web pods that are Ready now.
func (w *WebTier) Pods(t testing.TB) []string {
	t.Helper()
	return w.Cluster.Kube.ReadyPods(t, w.Namespace, w.Selector, 1)
}

// Forward opens a port-forward (pkg/k8s, through the API server) to WebPort of each web pod that
// is Ready now, as a user would by hand, and returns their URLs by pod name. They are closed when
// the test ends.
func (w *WebTier) Forward(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, pod := range w.Pods(t) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		f, err := k8s.ForwardPod(ctx, w.Cluster.Kube.Clients, w.Namespace, pod, WebPort)
		cancel()
		if err != nil {
			t.Fatalf("port-forward to web pod %s: %v", pod, err)
		}
		t.Cleanup(f.Close)
		out[pod] = "http://" + f.LocalAddr
	}
	return out
}

// URLs are Forward's URLs, comma-separated, for --target.
func URLs(byPod map[string]string) string {
	var us []string
	for _, u := range byPod {
		us = append(us, u)
	}
	return strings.Join(us, ",")
}
