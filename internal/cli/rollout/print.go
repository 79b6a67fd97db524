package rollout

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/rollout"
)

// printPlanSummary writes the plan's header and warnings.
func printPlanSummary(w io.Writer, v *rollout.PlanView) {
	fmt.Fprintf(w, "HPA %s/%s -> Deployment %s (%s): range %s, %d replicas now\n", v.Namespace, v.HPA, v.Deployment, strings.Join(v.Images, ", "), rng(v.Current), v.Replicas)
	fmt.Fprintf(w, "plan: steps %s, final range %s, hold %s, gates [%s] every %s; %s\n", joinSteps(v.Plan.Steps), v.Plan.FinalRange(),
		v.Plan.Hold.Duration, strings.Join(v.Gates, ", "), v.Plan.GateInterval.Duration, v.Rollback)
	if pg := v.Prom; pg != nil {
		noData := "fails"
		if pg.NoDataPasses {
			noData = "passes (--gate-prom-no-data pass)"
		}
		fmt.Fprintf(w, "PromQL gates on %s (each passes on at least one sample, none 0 or NaN; no data %s):\n", pg.Server, noData)
		for i, q := range pg.Queries {
			fmt.Fprintf(w, "  %s: %s\n", rollout.PromGateName(i), q)
		}
	}
	for _, s := range v.Steps {
		if s.Note != "" && s.Step == 1 {
			fmt.Fprintf(w, "NOTE: step 1 %s\n", s.Note)
		}
	}
	for _, wn := range v.Warnings {
		fmt.Fprintf(w, "WARNING: %s\n", wn)
	}
}

// printPlan writes the plan as a table of steps and patches.
func printPlan(w io.Writer, v *rollout.PlanView) error {
	printPlanSummary(w, v)
	t := output.NewTable(w, "STEP", "REPLICAS", "PATCH (merge, HPA spec)", "NOTE")
	for _, s := range v.Steps {
		step := fmt.Sprint(s.Step)
		if s.Step == 0 {
			step = "final"
		}
		_ = t.Append([]string{step, s.Replicas, s.Patch, s.Note})
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintf(w, "nothing was changed (osctl rollout run --dry-run=server sends these patches as a server-side dry run)\n")
	return nil
}

// printResults writes precondition results as a table.
func printResults(w io.Writer, rs []preflight.Result) {
	if len(rs) == 0 {
		return
	}
	t := output.NewTable(w, "CHECK", "STATUS", "SUBJECT", "MESSAGE")
	for _, r := range rs {
		msg := r.Message
		if r.Fix != "" && r.Status == preflight.Fail {
			msg += " (fix: " + r.Fix + ")"
		}
		_ = t.Append([]string{r.ID, strings.ToUpper(string(r.Status)), r.Subject, msg})
	}
	_ = t.Render()
}

// printOutcome writes the result line and the step history.
func printOutcome(w io.Writer, out *rollout.Outcome) error {
	switch out.Phase {
	case rollout.PhaseCompleted:
		fmt.Fprintf(w, "rollout completed: HPA range %s\n", rng(out.Final))
	case rollout.PhaseRolledBack:
		fmt.Fprintf(w, "rolled back to HPA range %s: %s\n", rng(out.Final), out.Reason)
	case rollout.PhaseUndone:
		fmt.Fprintf(w, "undone: HPA range restored to %s\n", rng(out.Final))
	case rollout.PhaseDryRun:
		fmt.Fprintf(w, "dry run: the API server accepted every patch; nothing was changed\n")
		return nil
	default:
		fmt.Fprintf(w, "%s: %s\n", out.Phase, out.Reason)
	}
	if out.Journal != nil {
		return printHistory(w, out.Journal)
	}
	return nil
}

func printHistory(w io.Writer, j *rollout.Journal) error {
	t := output.NewTable(w, "TIME", "STEP", "REPLICAS", "EVENT", "MESSAGE")
	for _, e := range j.History {
		step := "-"
		if e.Step > 0 && e.Step <= len(j.Plan.Steps) {
			step = fmt.Sprintf("%d/%d", e.Step, len(j.Plan.Steps))
		} else if e.Step > len(j.Plan.Steps) {
			step = "final"
		}
		_ = t.Append([]string{e.Time.UTC().Format(time.RFC3339), step, e.Replicas, e.Event, e.Message})
	}
	return t.Render()
}

func helmSet(m rollout.Manager) string {
	keys := slices.Sorted(maps.Keys(m.Values))
	var parts []string
	for _, k := range keys {
		parts = append(parts, "--set "+k+"="+m.Values[k])
	}
	return strings.Join(parts, " ")
}

// rng prints a range as min-max, also when min = max.
func rng(r rollout.Range) string { return fmt.Sprintf("%d-%d", r.Min, r.Max) }

// printStatus writes what `osctl rollout status` shows.
func printStatus(w io.Writer, v *rollout.StatusView, now time.Time) error {
	fmt.Fprintf(w, "HPA %s/%s: range %s; Deployment %s: %s\n", v.Namespace, v.HPA, rng(v.Range), v.Deployment, v.State)
	if l := v.Lease; l != nil && l.Holder != "" {
		state := "expired"
		if l.Live {
			state = "live"
		}
		fmt.Fprintf(w, "lease: %s, held by %s until %s by its holder's clock (%s)\n", l.Name, l.Holder, l.Expires.UTC().Format(time.RFC3339), state)
	} else {
		fmt.Fprintln(w, "lease: free")
	}
	j := v.Journal
	if j == nil {
		fmt.Fprintln(w, "no rollout recorded on this HPA")
		return nil
	}
	step := j.Position()
	fmt.Fprintf(w, "rollout %s: %s, %s; expected range %s; original %s; started %s ago by %s\n", j.ID, strings.ToUpper(string(j.Phase)), step,
		rng(j.Expected), rng(j.Original.Range), now.Sub(j.StartedAt).Round(time.Second), j.Holder)
	if j.Reason != "" {
		fmt.Fprintf(w, "reason: %s\n", j.Reason)
	}
	if v.Drift != "" {
		fmt.Fprintf(w, "DRIFT: the HPA's spec differs from the journal: %s\n", v.Drift)
	}
	for _, g := range j.Gates {
		fmt.Fprintf(w, "gate %s: %s at %s %s\n", g.Gate, strings.ToUpper(g.Status), g.At.UTC().Format("15:04:05"), g.Message)
	}
	switch j.Phase {
	case rollout.PhaseRunning, rollout.PhaseRollingBack:
		if v.Lease == nil || !v.Lease.Live {
			fmt.Fprintln(w, "the holder looks gone (Lease expired by its clock): osctl rollout resume with the run's gate flags continues it, osctl rollout undo restores the original range (each once the Lease stays unchanged for its duration here)")
		}
	case rollout.PhaseRollbackFailed, rollout.PhaseStopped:
		fmt.Fprintln(w, "unfinished: osctl rollout undo restores the original range")
	}
	return printHistory(w, j)
}
