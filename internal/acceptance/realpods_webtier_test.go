//go:build linux

package acceptance

import (
	"testing"

	"github.com/osctl/osctl/internal/testenv/realnode"
	"github.com/osctl/osctl/pkg/stress/report"
)

// TestMainJobOnAWebTierOfRealPods runs the README's main job against the sandbox's web tier in
// real pods (3 replicas of osctl's image running `sandbox serve`, one hostPath volume, Redis in a
// pod): without locking the run finds races (exit 1), with redlock it is clean and conclusive
// (exit 0). The load reaches each pod through a port-forward of its own, opened by hand; the
// state is read from the volume's directory on this machine.
func TestMainJobOnAWebTierOfRealPods(t *testing.T) {
	c := realnode.Shared(t)
	for _, tc := range []struct {
		locking, verdict string
		code             int
	}{{"none", "races", 1}, {"redlock", "clean", 0}} {
		t.Run(tc.locking, func(t *testing.T) {
			ns := c.Kube.NewNamespace(t)
			w := c.StartWebTier(t, ns, realnode.WebTierOptions{Replicas: 3, Locking: tc.locking})
			urls := w.Forward(t)
			if len(urls) != 3 {
				t.Fatalf("forwards to %d web pods, want 3: %v", len(urls), urls)
			}
			args := []string{"stress", "--profile", "openstudio", "--target", realnode.URLs(urls), "--state-dir", w.StateDir,
				"--requests", "2000", "--concurrency", "300", "--analyses", "20", "-o", "json"}
			if tc.code == 1 {
				// A racy run's failed extractions stay queued for good: 5 s without progress end
				// the settle wait, not its default minute.
				args = append(args, "--settle-quiet", "5s")
			}
			r := runOsctl(t, args...)
			var rep report.Report
			r.Decode(t, &rep)
			if r.Code != tc.code || rep.Verdict != tc.verdict {
				t.Fatalf("--locking %s on real pods: exit %d verdict %s %v reasons %v, want exit %d %s\n%s",
					tc.locking, r.Code, rep.Verdict, rep.FindingCounts, rep.Reasons, tc.code, tc.verdict, r.Stderr)
			}
			t.Logf("--locking %s: exit %d, %s, findings %v, %d requests in %.1fs", tc.locking, r.Code, rep.Verdict, rep.FindingCounts, rep.Counts.Total, rep.Elapsed)
		})
	}
}
