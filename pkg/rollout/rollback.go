package rollout

import (
	"context"
	"fmt"
	"time"
)

// rollback restores the range the plan says (the original, or the last step that passed) and
// waits until the Deployment has scaled back.
func (r *Runner) rollback(ctx context.Context, k *leaseKeeper, j *Journal, reason string, cause error) *Outcome {
	target := j.Original.Range
	if j.Plan.RollbackTo == RollbackLastGood && j.LastGood > 0 {
		target = Pinned(j.LastGood)
	}
	if j.Rollback != nil {
		target = *j.Rollback
	}
	j.Reason = reason
	j.Rollback = &target
	out := r.restore(ctx, k, j, target, "rollback: "+reason, PhaseRolledBack)
	if out.Phase == PhaseRolledBack {
		out.Err = cause
	}
	return out
}

// restore sets the HPA to target and waits for the Deployment, on a context of its own (it must
// finish after Ctrl-C) bounded by RollbackTimeout, then records donePhase.
func (r *Runner) restore(ctx context.Context, k *leaseKeeper, j *Journal, target Range, why string, donePhase Phase) *Outcome {
	timeout := positiveOr(r.RollbackTimeout, DefaultRollbackTimeout)
	rctx, cancelT := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancelT()
	rctx, cancel := k.watch(rctx)
	defer cancel()
	event := "rollback"
	if donePhase == PhaseUndone {
		event = "undo"
	}
	prev := j.Expected
	j.Phase, j.Expected = PhaseRollingBack, target
	if donePhase == PhaseUndone {
		j.Reason = "undo"
	}
	j.add(r.now(), j.Step, target.String(), event, why)
	r.observe(Progress{Kind: ProgressRollback, Step: j.Step, Steps: len(j.Plan.Steps), Range: target,
		Message: fmt.Sprintf("%s: restoring the HPA range %s", why, target), Deadline: r.now().Add(timeout)})
	if err := r.commit(rctx, j, prev); err != nil {
		err = r.causeOf(rctx, err)
		if out := r.halt(ctx, j, err); out != nil {
			return out
		}
		return r.rollbackFailed(ctx, j, err)
	}
	r.event(rctx, "Warning", "RolloutRollback", fmt.Sprintf("%s: HPA range set back to %s", why, target))
	_, err := waitSettled(rctx, r, j.Deployment, target, fmt.Sprintf("%s within the rollback timeout %s", event, timeout), func(s DeploymentState) {
		r.observe(Progress{Kind: ProgressWaiting, Step: j.Step, Steps: len(j.Plan.Steps), Range: target, State: &s})
	})
	if err != nil {
		return r.rollbackFailed(ctx, j, r.causeOf(rctx, err))
	}
	j.Phase = donePhase
	j.add(r.now(), j.Step, target.String(), string(donePhase), "the Deployment has scaled back")
	if err := r.commitJournal(rctx, j); err != nil {
		return r.rollbackFailed(ctx, j, fmt.Errorf("the HPA is back at %s, but recording it failed: %w", target, err))
	}
	msg := fmt.Sprintf("%s: HPA back at %s and the Deployment has scaled back", event, target)
	r.event(rctx, "Normal", "RolloutRolledBack", msg)
	r.observe(Progress{Kind: ProgressRolledBack, Range: target, Message: msg})
	return &Outcome{Phase: donePhase, Reason: j.Reason, Final: target, Journal: j}
}

func (r *Runner) rollbackFailed(ctx context.Context, j *Journal, err error) *Outcome {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	j.Phase = PhaseRollbackFailed
	if j.Reason != "" && j.Reason != "undo" {
		err = fmt.Errorf("%w (after: %s)", err, j.Reason)
	}
	j.Reason = err.Error()
	j.add(r.now(), j.Step, "", "rollback-failed", err.Error())
	if werr := r.commitJournal(wctx, j); werr != nil {
		err = fmt.Errorf("%w (and the journal could not be updated: %v)", err, werr)
	}
	r.event(wctx, "Warning", "RolloutRollbackFailed", "rollback could not complete: "+err.Error())
	return &Outcome{Phase: PhaseRollbackFailed, Reason: err.Error(), Journal: j, Err: err}
}
