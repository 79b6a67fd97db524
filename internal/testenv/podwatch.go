package testenv

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// WatchPods calls fn with the name of every pod of ns that is added or changes, from now until
// the test ends (the watch is restarted when the API server ends it). A pod is seen many times:
// fn decides what is new. An error from fn is logged, not fatal: a pod may go away meanwhile.
func (k *Kube) WatchPods(t testing.TB, ns string, fn func(ctx context.Context, pod string) error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	go func() {
		defer close(done)
		pods := k.Clients.Clientset.CoreV1().Pods(ns)
		for ctx.Err() == nil {
			wi, err := pods.Watch(ctx, metav1.ListOptions{})
			if err != nil {
				time.Sleep(100 * time.Millisecond)
				continue
			}
			for ev := range wi.ResultChan() {
				p, ok := ev.Object.(*corev1.Pod)
				if !ok || ev.Type == watch.Deleted {
					continue
				}
				if err := fn(ctx, p.Name); err != nil && ctx.Err() == nil {
					t.Logf("pod %s/%s: %v", ns, p.Name, err)
				}
			}
			wi.Stop()
		}
	}()
}

// WebDeployment is the manifest of a Deployment named web whose pods are labelled app=web, with
// replicas and podSpec: the pod template's spec, as YAML starting at column 0.
func WebDeployment(replicas int, podSpec string) string {
	lines := strings.Split(strings.TrimRight(podSpec, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "      " + l
		}
	}
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
%s
`, replicas, strings.Join(lines, "\n"))
}

// SpreadWebPods is a pod spec's placement (for WebOnSharedDir) that puts each web pod on a node
// of its own.
const SpreadWebPods = `affinity:
  podAntiAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
    - labelSelector: {matchLabels: {app: web}}
      topologyKey: kubernetes.io/hostname`

// WebOnSharedDir is the pod spec (for WebDeployment) of web pods that share the directory dir as
// NFS clients share one volume: after a busybox sidecar, the web container mounts an emptyDir at
// dir, and kwok runs exec on this host, so every pod sees the host directory dir. placement
// (a nodeSelector or SpreadWebPods) goes first.
func WebOnSharedDir(placement, dir string) string {
	return fmt.Sprintf(`%s
containers:
- name: sidecar
  image: busybox
- name: web
  image: nrel/openstudio-server:3.7.0
  volumeMounts: [{name: shared, mountPath: %q}]
volumes:
- name: shared
  emptyDir: {}
`, placement, dir)
}
