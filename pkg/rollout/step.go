package rollout

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// ErrInterrupted is the cause of a rollback when the caller's context was cancelled (Ctrl-C).
var ErrInterrupted = errors.New("interrupted")

// GateError is a gate that failed while a step held.
type GateError struct {
	Step     int
	Replicas int32
	Failed   []GateResult
}

func (e *GateError) Error() string {
	var parts []string
	for _, g := range e.Failed {
		parts = append(parts, fmt.Sprintf("gate %s failed: %s", g.Gate, g.Message))
	}
	return fmt.Sprintf("step %d (%d replicas): %s", e.Step, e.Replicas, strings.Join(parts, "; "))
}

// execute runs the steps from index from, then sets the final range; on failure it rolls back
// or stops. It holds the Lease until it returns.
func (r *Runner) execute(ctx context.Context, k *leaseKeeper, j *Journal, gates []Gate, from int) *Outcome {
	k.start(context.WithoutCancel(ctx))
	defer k.release(context.WithoutCancel(ctx))
	runCtx, cancel := k.watch(ctx)
	defer cancel()
	err := r.steps(runCtx, j, gates, from)
	if err == nil {
		return &Outcome{Phase: PhaseCompleted, Journal: j, Final: j.Expected}
	}
	return r.fail(ctx, k, j, err)
}

// fail decides what a failed step leads to: a stop (Lease lost, someone else changed the HPA) or
// a rollback (gate, timeout, interruption, API error).
func (r *Runner) fail(ctx context.Context, k *leaseKeeper, j *Journal, err error) *Outcome {
	if out := r.halt(ctx, j, err); out != nil {
		return out
	}
	reason := err.Error()
	var ge *GateError
	if errors.As(err, &ge) {
		r.event(ctx, "Warning", "RolloutGateFailed", reason)
	}
	return r.rollback(ctx, k, j, reason, err)
}

// halt stops without touching the HPA when err is a lost Lease or someone else's change to the
// HPA; for any other error it returns nil.
func (r *Runner) halt(ctx context.Context, j *Journal, err error) *Outcome {
	var ie *InterferenceError
	switch {
	case errors.Is(err, ErrLeaseLost):
		r.observe(Progress{Kind: ProgressWarning, Message: err.Error() + ": stopping without touching the HPA"})
		return &Outcome{Phase: PhaseStopped, Reason: err.Error(), Journal: j, Err: err}
	case errors.As(err, &ie):
		return r.stop(ctx, j, err)
	}
	return nil
}

// stop records that the rollout stopped without touching the HPA's spec.
func (r *Runner) stop(ctx context.Context, j *Journal, err error) *Outcome {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	j.Phase, j.Reason = PhaseStopped, err.Error()
	j.add(r.now(), j.Step, "", "stopped", err.Error())
	_ = r.commitJournal(wctx, j)
	r.event(wctx, "Warning", "RolloutStopped", err.Error())
	r.observe(Progress{Kind: ProgressWarning, Message: err.Error()})
	return &Outcome{Phase: PhaseStopped, Reason: err.Error(), Journal: j, Err: err}
}

func (r *Runner) steps(ctx context.Context, j *Journal, gates []Gate, from int) error {
	p := j.Plan
	n := len(p.Steps)
	for i := from; i < n; i++ {
		k := p.Steps[i]
		prev := j.Expected
		j.Step, j.Expected = i+1, Pinned(k)
		j.add(r.now(), i+1, j.Expected.String(), "step", fmt.Sprintf("pinning the HPA to %d replicas", k))
		if err := r.commit(ctx, j, prev); err != nil {
			return r.causeOf(ctx, err)
		}
		msg := fmt.Sprintf("step %d/%d: HPA pinned to %d replicas (minReplicas = maxReplicas = %d)", i+1, n, k, k)
		r.event(ctx, "Normal", "RolloutStep", msg)
		r.observe(Progress{Kind: ProgressStep, Step: i + 1, Steps: n, Range: j.Expected, Message: msg,
			Deadline: r.now().Add(p.StepTimeout.Duration)})
		if err := r.settleAndHold(ctx, j, gates, true); err != nil {
			return err
		}
		j.LastGood = k
		j.add(r.now(), i+1, j.Expected.String(), "passed", fmt.Sprintf("held %s with gates passing", p.Hold.Duration))
		if err := r.commit(ctx, j, j.Expected); err != nil {
			return r.causeOf(ctx, err)
		}
		r.event(ctx, "Normal", "RolloutStepPassed", fmt.Sprintf("step %d/%d: %d replicas held %s with gates passing", i+1, n, k, p.Hold.Duration))
		r.observe(Progress{Kind: ProgressPassed, Step: i + 1, Steps: n, Range: j.Expected})
	}
	final := p.FinalRange()
	prev := j.Expected
	j.Step, j.Expected = n+1, final
	j.add(r.now(), 0, final.String(), "final", "setting the final range")
	if err := r.commit(ctx, j, prev); err != nil {
		return r.causeOf(ctx, err)
	}
	r.observe(Progress{Kind: ProgressFinal, Steps: n, Range: final, Message: "final range " + final.String()})
	if err := r.settleAndHold(ctx, j, nil, false); err != nil {
		return err
	}
	j.Phase = PhaseCompleted
	j.add(r.now(), 0, final.String(), "completed", "")
	if err := r.commit(ctx, j, j.Expected); err != nil {
		return r.causeOf(ctx, err)
	}
	msg := fmt.Sprintf("rollout completed: steps %v passed, HPA range %s", p.Steps, final)
	r.event(ctx, "Normal", "RolloutCompleted", msg)
	r.observe(Progress{Kind: ProgressDone, Steps: n, Range: final, Message: msg})
	return nil
}

// settleAndHold waits (watching) until the Deployment settles in j.Expected within the step
// timeout, then, when hold is set, holds while the gates run. A watch on the HPA stops it as
// soon as someone else changes the HPA's spec.
func (r *Runner) settleAndHold(ctx context.Context, j *Journal, gates []Gate, hold bool) error {
	specCtx, cancelSpec := context.WithCancelCause(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancelSpec(nil)
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := watchSpec(specCtx, r, j); err != nil {
			cancelSpec(err)
		}
	}()
	want := j.Expected
	step, steps := j.Step, len(j.Plan.Steps)
	what := fmt.Sprintf("step %d (%s replicas)", step, want)
	if step > steps {
		what = "final range " + want.String()
	}
	waitCtx, cancelWait := context.WithTimeout(specCtx, j.Plan.StepTimeout.Duration)
	state, err := waitSettled(waitCtx, r, j.Deployment, want, what, func(s DeploymentState) {
		r.observe(Progress{Kind: ProgressWaiting, Step: step, Steps: steps, Range: want, State: &s})
	})
	cancelWait()
	if err != nil {
		var te *TimeoutError
		if errors.As(err, &te) {
			te.What += fmt.Sprintf(" within the step timeout %s", j.Plan.StepTimeout.Duration)
			pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			te.NotReady = notReadyPods(pctx, r, j.Deployment, r.now())
			cancel()
		}
		return r.causeOf(specCtx, err)
	}
	if !hold {
		return nil
	}
	end := r.now().Add(j.Plan.Hold.Duration)
	r.observe(Progress{Kind: ProgressReady, Step: step, Steps: steps, Range: want, State: &state, Deadline: end,
		Message: fmt.Sprintf("%s ready; holding %s", what, j.Plan.Hold.Duration)})
	return r.hold(specCtx, j, gates, end)
}

// persistEvery is how often a hold writes unchanged gate results to the journal.
const persistEvery = 30 * time.Second

func gateStatuses(gs []GateBrief) string {
	var b strings.Builder
	for _, g := range gs {
		b.WriteString(g.Gate + "=" + g.Status + ";")
	}
	return b.String()
}

func (r *Runner) hold(ctx context.Context, j *Journal, gates []Gate, end time.Time) error {
	lastPersist := r.now()
	for {
		if len(gates) > 0 {
			res := runGates(ctx, gates, positiveOr(r.GateTimeout, DefaultGateTimeout), r.now)
			if ctx.Err() != nil {
				return r.causeOf(ctx, ctx.Err())
			}
			prev := gateStatuses(j.Gates)
			j.Gates = j.Gates[:0]
			var failed []GateResult
			for _, g := range res {
				j.Gates = append(j.Gates, GateBrief{Gate: g.Gate, Status: string(g.Status), Message: g.Message, Value: g.Value, At: g.At})
				if g.Failed() {
					failed = append(failed, g)
				}
			}
			// Keep the journal's gate results fresh for `status` from another terminal: on a
			// change, and at least every persistEvery.
			if len(failed) == 0 && (gateStatuses(j.Gates) != prev || r.now().Sub(lastPersist) >= persistEvery) {
				if err := r.commitJournal(ctx, j); err != nil && ctx.Err() == nil {
					r.observe(Progress{Kind: ProgressWarning, Message: "could not record the gate results in the journal: " + err.Error()})
				}
				lastPersist = r.now()
			}
			r.observe(Progress{Kind: ProgressGates, Step: j.Step, Steps: len(j.Plan.Steps), Range: j.Expected, Gates: res, Deadline: end})
			if len(failed) > 0 {
				return &GateError{Step: j.Step, Replicas: j.Expected.Max, Failed: failed}
			}
		}
		left := end.Sub(r.now())
		if left <= 0 {
			return nil
		}
		wait := j.Plan.GateInterval.Duration
		if left < wait || len(gates) == 0 {
			wait = left
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return r.causeOf(ctx, ctx.Err())
		case <-t.C:
		}
	}
}

// causeOf explains why a step ended: the context's cause when it was cancelled (someone else's
// change, a lost Lease, an interruption), else err.
func (r *Runner) causeOf(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	c := context.Cause(ctx)
	if c == nil || errors.Is(c, context.DeadlineExceeded) {
		return err
	}
	if errors.Is(c, context.Canceled) {
		return fmt.Errorf("%w: the rollout was cancelled (Ctrl-C, SIGTERM or the caller)", ErrInterrupted)
	}
	return c
}
