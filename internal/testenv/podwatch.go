package testenv

import (
	"context"
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
