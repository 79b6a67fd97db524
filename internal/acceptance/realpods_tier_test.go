//go:build linux

package acceptance

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/realnode"
	"github.com/osctl/osctl/pkg/stress/report"
)

// TestConcurrencyAutoCountsRealReadyPods: `--concurrency auto` counts the pods a real kubelet
// calls Ready. Of the Deployment's 3 real pods (MAX_POOL 2 + MAX_REQUESTS 3 each), the third
// started after the share got a file "broken" and its readiness probe (GET /healthz) never
// passes: it runs, but the tier is 2 pods, a capacity of 10, not 15.
func TestConcurrencyAutoCountsRealReadyPods(t *testing.T) {
	c := realnode.Shared(t)
	k := c.Kube
	ns := k.NewNamespace(t)
	share := t.TempDir()
	k.Apply(t, ns, testenv.WebDeployment(2, realnode.ProbedWebPodSpec(share, `[{name: MAX_POOL, value: "2"}, {name: MAX_REQUESTS, value: "3"}]`)))
	k.ReadyPods(t, ns, "app=web", 2)
	realnode.BreakProbes(t, share)
	k.Kubectl(t, "-n", ns, "scale", "deployment/web", "--replicas=3")
	testenv.WaitFor(t, 60*time.Second, "the third pod running, its probe failing", func() (bool, error) {
		l, err := k.Clients.Clientset.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "app=web"})
		if err != nil {
			return false, err
		}
		running := 0
		for _, p := range l.Items {
			for _, cs := range p.Status.ContainerStatuses {
				if cs.State.Running != nil && time.Since(cs.State.Running.StartedAt.Time) > 2*time.Second {
					running++
				}
			}
		}
		return running == 3 && readyCount(l.Items) == 2, nil
	})
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	r := runOsctl(t, "stress", "--profile", "http", "--target", srv.URL, "--requests", "50", "--concurrency", "auto",
		"--kubeconfig", k.Kubeconfig, "-n", ns, "--deployment", "web", "-o", "json")
	var rep report.Report
	r.Decode(t, &rep)
	if r.Code != 0 || rep.Concurrency != 10 || rep.ConcurrencySource != "auto" || rep.TierCapacity != 10 {
		t.Fatalf("exit %d: concurrency %d source %q capacity %d, want 10 auto 10 (2 Ready pods x 5)\n%s",
			r.Code, rep.Concurrency, rep.ConcurrencySource, rep.TierCapacity, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "(2 ready pods x (MAX_POOL 2 + MAX_REQUESTS 3) = 10)") {
		t.Errorf("stderr should say how the capacity was counted:\n%s", r.Stderr)
	}
}

func readyCount(pods []corev1.Pod) int {
	n := 0
	for _, p := range pods {
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
				n++
			}
		}
	}
	return n
}
