//go:build linux

package acceptance

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/realnode"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/report"
)

// podRequests are the report's requests by pod (--target-pods), and the load's total.
func podRequests(t *testing.T, rep report.Report) (map[string]int, int) {
	t.Helper()
	by, total := map[string]int{}, 0
	for _, tg := range rep.Targets {
		if tg.Pod == "" || tg.Requests == nil {
			t.Fatalf("target %s has no pod or no requests in the report: %+v", tg.URL, tg)
		}
		by[tg.Pod] += *tg.Requests
		total += *tg.Requests
	}
	return by, total
}

// TestTargetPodsReachesEveryPod: `stress --target-pods app=web` against a Deployment of 3 real
// pods (the sandbox without locking) sends to each pod through a port-forward of its own: each
// pod gets at least a quarter of the requests, the report's targets say so, and the terminal
// summary names them. The verdict is the one of a run whose targets are the same pods' forwards
// given by hand (--target): races, exit 1. A Service's name means its selector.
func TestTargetPodsReachesEveryPod(t *testing.T) {
	c := realnode.Shared(t)
	ns := c.Kube.NewNamespace(t)
	w := c.StartWebTier(t, ns, realnode.WebTierOptions{Replicas: 3, Locking: "none"})
	pods := w.Pods(t)
	// The tier is unlocked: its failed extractions stay queued for good, and 5 s without progress
	// end each run's settle wait, not its default minute.
	load := []string{"--profile", "openstudio", "--state-dir", w.StateDir, "--requests", "1500", "--concurrency", "300", "--analyses", "20",
		"--settle-quiet", "5s"}
	kube := []string{"--kubeconfig", c.Kube.Kubeconfig, "-n", ns}

	r := runOsctl(t, slices.Concat([]string{"stress", "--target-pods", "app=web"}, kube, load, []string{"-o", "json"})...)
	var rep report.Report
	r.Decode(t, &rep)
	if r.Code != 1 || rep.Verdict != "races" {
		t.Fatalf("--target-pods app=web on an unlocked tier: exit %d %s %v reasons %v, want exit 1 races\n%s", r.Code, rep.Verdict, rep.FindingCounts, rep.Reasons, r.Stderr)
	}
	by, total := podRequests(t, rep)
	if len(by) != 3 || total != int(rep.Counts.Total) {
		t.Fatalf("targets %v (total %d), want the 3 pods %v with the load's %d requests", by, total, pods, rep.Counts.Total)
	}
	for _, p := range pods {
		if by[p]*4 < total {
			t.Errorf("pod %s got %d of %d requests, under a quarter", p, by[p], total)
		}
	}
	t.Logf("--target-pods: %s %v, requests by pod %v", rep.Verdict, rep.FindingCounts, by)

	// The same pods by hand, one forward each; and the terminal summary of a run by Service name.
	h := runOsctl(t, slices.Concat([]string{"stress", "--target", realnode.URLs(w.Forward(t))}, load, []string{"-o", "json"})...)
	var hand report.Report
	h.Decode(t, &hand)
	if h.Code != r.Code || hand.Verdict != rep.Verdict {
		t.Errorf("by hand: exit %d %s %v; --target-pods: exit %d %s", h.Code, hand.Verdict, hand.FindingCounts, r.Code, rep.Verdict)
	}
	s := runOsctl(t, slices.Concat([]string{"stress", "--target-pods", "web"}, kube, load, []string{"--requests", "300", "--concurrency", "30", "--analyses", "5"})...)
	for _, p := range pods {
		if !strings.Contains(s.Stdout, "pod "+p+": ") {
			t.Errorf("the terminal summary of --target-pods web does not name pod %s:\n%s", p, s.Stdout)
		}
	}
}

// redlockTierOfThree starts a web tier of 3 real pods with locking in a namespace of its own, and
// returns its pods and a history path for the run.
func redlockTierOfThree(t *testing.T) (c *realnode.Cluster, ns string, w *realnode.WebTier, pods []string, hist string) {
	t.Helper()
	c = realnode.Shared(t)
	ns = c.Kube.NewNamespace(t)
	w = c.StartWebTier(t, ns, realnode.WebTierOptions{Replicas: 3, Locking: "redlock"})
	return c, ns, w, w.Pods(t), filepath.Join(t.TempDir(), "history.jsonl")
}

// TestTargetPodsFollowsTheDeployment: a pod deleted while `stress --target-pods` runs gets no
// request sent after it went (beyond the re-list's second and the forward's end), its target is
// marked gone, and the pod its ReplicaSet made instead is taken in and appears in targets with
// requests of its own.
func TestTargetPodsFollowsTheDeployment(t *testing.T) {
	c, ns, w, before, hist := redlockTierOfThree(t)
	run := testenv.StartOsctl(t, 5*time.Minute, "stress", "--target-pods", "app=web", "--kubeconfig", c.Kube.Kubeconfig, "-n", ns,
		"--state-dir", w.StateDir, "--requests", "4000", "--concurrency", "60", "--analyses", "20", "--background-wait", "0",
		"--history", hist, "-o", "json")
	testenv.WaitFor(t, 2*time.Minute, "the load to begin", func() (bool, error) {
		return strings.Contains(run.Stderr.String(), "openstudio profile,"), nil
	})
	time.Sleep(3 * time.Second)
	victim := before[0]
	deleted := time.Now()
	c.Kube.Kubectl(t, "-n", ns, "delete", "pod", victim, "--wait=false")
	r := run.Wait(t)
	var rep report.Report
	r.Decode(t, &rep)
	if r.Code == 2 {
		t.Fatalf("stress with a pod deleted mid-run: exit 2 %v\n%s", rep.Reasons, r.Stderr)
	}
	gone, replacement := victimAndReplacement(t, rep, victim, before)
	victimURL := gone.URL
	if !gone.Gone {
		t.Errorf("the deleted pod's target is not marked gone: %+v", gone)
	}
	if replacement == nil || !replacement.Added || replacement.Requests == nil || *replacement.Requests == 0 {
		t.Fatalf("targets %+v: want the deleted pod %s gone and its replacement taken in with requests", rep.Targets, victim)
	}
	h, err := history.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	// The pod is let go at the first re-list after its deletion (1 s), and requests already
	// waiting for a connection may still go out until the forward ends with the pod (2 s grace).
	late := deleted.Add(5 * time.Second)
	sentAfter := 0
	for _, rec := range h.Records {
		if rec.Kind == history.KindRequest && !rec.Setup && rec.Target == victimURL && rec.Start.After(late) {
			sentAfter++
		}
	}
	if sentAfter > 0 {
		t.Errorf("%d requests were sent to the deleted pod %s more than 5 s after its deletion", sentAfter, victim)
	}
	t.Logf("deleted %s; replacement %s took %d requests; verdict %s; targets %+v", victim, replacement.Pod, *replacement.Requests, rep.Verdict, rep.Targets)
}

// TestNemesisKillsARealPod: `--nemesis kill-replica` with --target-pods on real pods deletes a
// web pod with grace 0, and its process really dies mid-request: the requests in flight on that
// pod's forward when it was killed are ambiguous (none acknowledged after it died), the pod's
// process is gone from the node, and the pod its ReplicaSet made instead was Ready, taken in and
// sent requests before the run ended.
func TestNemesisKillsARealPod(t *testing.T) {
	c, ns, w, before, hist := redlockTierOfThree(t)
	// 4000 requests: the replacement comes some seconds after the kill, however fast the load
	// goes (of 2000 sent quickly it took only 72). The killed pod's jobs stay queued for good
	// (Resque never prunes a deleted pod's worker): 5 s without progress end the settle wait, not
	// its default minute.
	r := runOsctl(t, "stress", "--target-pods", "app=web", "--kubeconfig", c.Kube.Kubeconfig, "-n", ns,
		"--state-dir", w.StateDir, "--requests", "4000", "--concurrency", "60", "--analyses", "20", "--background-wait", "0",
		"--settle-quiet", "5s", "--nemesis", "kill-replica@4s", "--history", hist, "-o", "json")
	var rep report.Report
	r.Decode(t, &rep)
	if len(rep.Faults) != 1 || rep.Faults[0].Outcome != "done" || !strings.HasPrefix(rep.Faults[0].Target, "pod "+ns+"/") {
		t.Fatalf("faults %+v, want kill-replica done on a pod of %s (exit %d)\n%s", rep.Faults, ns, r.Code, r.Stderr)
	}
	f := rep.Faults[0]
	victim := strings.TrimPrefix(f.Target, "pod "+ns+"/")
	if !slices.Contains(before, victim) {
		t.Fatalf("the fault hit %s, not one of the web pods %v", victim, before)
	}
	if _, err := c.Kube.Clients.Clientset.CoreV1().Pods(ns).Get(t.Context(), victim, metav1.GetOptions{}); err == nil {
		t.Errorf("the killed pod %s still exists after the run", victim)
	}
	in := f.InFlight
	if in == nil || !strings.HasPrefix(in.Scope, f.Target) || in.Ambiguous == 0 {
		t.Fatalf("in flight on the killed pod: %+v, want requests on its own forward, some ambiguous", in)
	}
	h, err := history.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	gone, replacement := victimAndReplacement(t, rep, victim, before)
	victimURL := gone.URL
	if replacement == nil || replacement.Requests == nil || *replacement.Requests == 0 {
		t.Fatalf("targets %+v: the killed pod's replacement was not taken in and sent requests before the run ended", rep.Targets)
	}
	// The process dies once the runtime kills it (grace 0): a request acknowledged by the
	// victim well after the kill would mean it lived on.
	for _, rec := range h.Records {
		if rec.Kind == history.KindRequest && rec.Target == victimURL && rec.Outcome == history.Acknowledged && rec.End.After(f.Injected.Add(3*time.Second)) {
			t.Errorf("request %d to the killed pod was acknowledged at %s, %s after the kill", rec.Seq, rec.End.Format(time.StampMilli), rec.End.Sub(f.Injected))
		}
	}
	t.Logf("exit %d %s; %s; replacement %s took %d requests", r.Code, rep.Verdict, strings.Join(rep.FaultLines(), "; "), replacement.Pod, *replacement.Requests)
}

// victimAndReplacement finds, among the report's targets, the victim pod's (the test fails
// without one: the checks on its requests would hold vacuously) and a pod not among before (the
// replacement, nil when none was taken in).
func victimAndReplacement(t *testing.T, rep report.Report, victim string, before []string) (gone, replacement *report.Target) {
	t.Helper()
	for i, tg := range rep.Targets {
		switch {
		case tg.Pod == victim:
			gone = &rep.Targets[i]
		case !slices.Contains(before, tg.Pod):
			replacement = &rep.Targets[i]
		}
	}
	if gone == nil || gone.URL == "" {
		t.Fatalf("targets %+v: the victim pod %s has no target in the report", rep.Targets, victim)
	}
	return gone, replacement
}
