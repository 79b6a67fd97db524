package rollout

import "testing"

func TestJournalPosition(t *testing.T) {
	j := &Journal{Plan: Plan{Steps: []int32{1, 2, 4}}, Phase: PhaseRunning}
	for _, c := range []struct {
		step  int
		phase Phase
		want  string
	}{
		{0, PhaseRunning, "before the first step"},
		{2, PhaseRunning, "step 2 of 3 (1,2,4)"},
		{3, PhaseRunning, "step 3 of 3 (1,2,4)"},
		{4, PhaseCompleted, "the final range " + j.Plan.FinalRange().String()},
		{0, PhaseCompleted, "the final range " + j.Plan.FinalRange().String()},
	} {
		j.Step, j.Phase = c.step, c.phase
		if got := j.Position(); got != c.want {
			t.Errorf("step %d %s: %q, want %q", c.step, c.phase, got, c.want)
		}
	}
}
