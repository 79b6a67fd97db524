package rollout_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/rollouttest"
	"github.com/osctl/osctl/pkg/rollout"
)

// resume --force takes a live rollout over: the first osctl notices it lost the Lease and stops
// without touching the HPA; the second finishes the same journal.
func TestForceTakeover(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	w := rollouttest.New(t, k, rollouttest.Options{})
	a := runner(w, "osctl-a")
	// A renews its Lease every second, so that it sees the takeover before B's next step changes
	// the HPA (else A stops on that change, not on the lost Lease). A stall that loses A's Lease
	// on a loaded machine ends A the same way.
	a.LeaseDuration = 3 * time.Second
	p := plan([]int32{2, 3}, nil)
	p.Hold.Duration = 30 * time.Second
	done := runHolding(t, context.Background(), a, p)
	b := runner(w, "osctl-b")
	if _, err := b.Resume(context.Background(), mustInspect(t, b), nil); err == nil {
		t.Fatal("resume without --force took a live Lease")
	}
	b.Force = true
	var warned atomic.Bool
	b.Observer = func(p rollout.Progress) {
		if p.Kind == rollout.ProgressWarning {
			warned.Store(true)
		}
	}
	// B holds its own steps briefly: shorten its plan's hold through the journal it resumes.
	tg := mustInspect(t, b)
	tg.Journal.Plan.Hold.Duration = time.Second
	resumed := make(chan *rollout.Outcome, 1)
	go func() {
		out, err := b.Resume(context.Background(), tg, nil)
		if err != nil {
			t.Error(err)
		}
		resumed <- out
	}()
	var outA *rollout.Outcome
	select {
	case outA = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the first osctl did not notice it lost the Lease")
	}
	if outA == nil || outA.Phase != rollout.PhaseStopped || !errors.Is(outA.Err, rollout.ErrLeaseLost) {
		t.Fatalf("first osctl: %+v", outA)
	}
	outB := <-resumed
	if outB == nil || outB.Phase != rollout.PhaseCompleted || !warned.Load() {
		t.Fatalf("second osctl: %+v (warned %v)", outB, warned.Load())
	}
	if min, max, _ := w.HPA(t); min != 3 || max != 3 {
		t.Fatalf("HPA %d-%d, want 3-3", min, max)
	}
}
