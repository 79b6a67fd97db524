package rollout

import (
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/rollout"
)

func progressSequence(p *progressPrinter) {
	now := time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)
	st := rollout.DeploymentState{Replicas: 2, Current: 1, Updated: 1, Ready: 1, Available: 1, Observed: true}
	pass := []rollout.GateResult{{Gate: "nfs", Status: preflight.Pass}, {Gate: "pods", Status: preflight.Pass}}
	for _, pr := range []rollout.Progress{
		{Kind: rollout.ProgressStep, Step: 2, Steps: 3, Range: rollout.Pinned(2), Message: "step 2/3: HPA pinned to 2 replicas", Deadline: now},
		{Kind: rollout.ProgressWaiting, Step: 2, Steps: 3, State: &st},
		{Kind: rollout.ProgressWaiting, Step: 2, Steps: 3, State: &st},
		{Kind: rollout.ProgressGates, Step: 2, Steps: 3, Gates: pass, Deadline: now},
		{Kind: rollout.ProgressGates, Step: 2, Steps: 3, Gates: pass, Deadline: now},
		{Kind: rollout.ProgressGates, Step: 2, Steps: 3, Gates: []rollout.GateResult{{Gate: "nfs", Status: preflight.Fail, Message: "nfs.noac pod/web-2: attribute cache on"}}, Deadline: now},
	} {
		pr.Time = now
		p.observe(pr)
	}
}

func TestProgressPlain(t *testing.T) {
	io, _, _, errOut := cmdutil.Test()
	progressSequence(newProgressPrinter(io))
	out := errOut.String()
	if strings.Contains(out, "\r") || strings.Contains(out, "[#") {
		t.Fatalf("plain output has terminal controls:\n%q", out)
	}
	if n := strings.Count(out, "deployment replicas 2"); n != 1 {
		t.Errorf("the same Deployment state printed %d times", n)
	}
	if n := strings.Count(out, "gates: nfs PASS, pods PASS"); n != 1 {
		t.Errorf("unchanged gate verdicts printed %d times:\n%s", n, out)
	}
	if !strings.Contains(out, "gates: nfs FAIL") || !strings.Contains(out, "nfs: nfs.noac pod/web-2: attribute cache on") {
		t.Errorf("a failure must be printed with its reason:\n%s", out)
	}
}

func TestProgressTerminal(t *testing.T) {
	io, _, _, errOut := cmdutil.Test()
	io.SetTTY(true, true, true)
	progressSequence(newProgressPrinter(io))
	out := errOut.String()
	if !strings.Contains(out, "[##-] step 2/3") || !strings.Contains(out, "\r\033[K") {
		t.Fatalf("terminal output lacks the step bar or the updating line:\n%q", out)
	}
}
