package k8s_test

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/nemesis"
)

// TestPodNemesisDeletesAWebPodItsReplicaSetReplaces: on a real API server with its controllers
// (kwok runs the pods), kill-replica deletes one running web pod, which the Deployment's
// ReplicaSet replaces; pauses and a selector with no pod are refused before any load.
func TestPodNemesisDeletesAWebPodItsReplicaSetReplaces(t *testing.T) {
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	k.Apply(t, ns, testenv.WebDeployment(3, `containers: [{name: web, image: "registry.invalid/openstudio-server:3.7.0"}]
`))
	before := k.ReadyPods(t, ns, "app=web", 3)
	cs := k.Clients.Clientset
	n := k8s.NewPodNemesis(cs, ns, k8s.DefaultWebSelector, k8s.DefaultRedisSelector, 3)

	for spec, want := range map[string]string{
		"pause-replica@1s+1s": "cannot be paused",
		"restart-redis@1s":    "no running pod in namespace " + ns + " matches app=redis",
	} {
		faults, err := nemesis.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		if err := n.Check(faults); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check(%s) = %v, want %q", spec, err, want)
		}
	}
	faults, _ := nemesis.Parse("kill-replica@0s")
	if err := n.Check(faults); err != nil {
		t.Fatal(err)
	}
	target, resume, err := n.Inject(faults[0])
	if err != nil || resume != nil {
		t.Fatalf("Inject: %q %v", target, err)
	}
	victim := strings.TrimPrefix(target, "pod "+ns+"/")
	found := false
	for _, p := range before {
		found = found || p == victim
	}
	if !found {
		t.Fatalf("Inject hit %q, not one of the web pods %v", target, before)
	}
	testenv.Eventually(t, 60*time.Second, "the deleted pod gone and replaced", func() bool {
		pods, err := cs.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "app=web"})
		if err != nil {
			return false
		}
		running := 0
		for _, p := range pods.Items {
			if p.Name == victim {
				return false
			}
			if p.DeletionTimestamp == nil && p.Status.Phase == "Running" {
				running++
			}
		}
		return running == 3
	})
}

// TestPodNemesisRefusesAnEmptySelector: a selector that selects every pod of the namespace is
// refused before any pod is listed (the clientset is never used).
func TestPodNemesisRefusesAnEmptySelector(t *testing.T) {
	for _, c := range []struct {
		web, redis string
		kind       nemesis.Kind
	}{{"", k8s.DefaultRedisSelector, nemesis.KillReplica}, {" ", k8s.DefaultRedisSelector, nemesis.KillReplica}, {k8s.DefaultWebSelector, "", nemesis.RestartRedis}} {
		err := k8s.NewPodNemesis(nil, "web", c.web, c.redis, 1).Check([]nemesis.Fault{{Kind: c.kind}})
		if err == nil || !strings.Contains(err.Error(), "an empty one selects every pod") {
			t.Errorf("%+v: %v", c, err)
		}
	}
}
