package rollout

import (
	"context"
	"errors"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	v1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"
)

// DeploymentState is a Deployment's replica counts as the rollout reads them.
type DeploymentState struct {
	Replicas  int32 `json:"replicas"` // spec.replicas, set by the HPA
	Current   int32 `json:"current"`
	Updated   int32 `json:"updated"`
	Ready     int32 `json:"ready"`
	Available int32 `json:"available"`
	Observed  bool  `json:"observed"` // the controller has observed the latest generation
}

func (s DeploymentState) String() string {
	return fmt.Sprintf("replicas %d: %d current, %d updated, %d ready, %d available", s.Replicas, s.Current, s.Updated, s.Ready, s.Available)
}

// StateOf reads a Deployment's replica counts.
func StateOf(d *appsv1.Deployment) DeploymentState {
	s := DeploymentState{Replicas: 1, Current: d.Status.Replicas, Updated: d.Status.UpdatedReplicas,
		Ready: d.Status.ReadyReplicas, Available: d.Status.AvailableReplicas, Observed: d.Status.ObservedGeneration >= d.Generation}
	if d.Spec.Replicas != nil {
		s.Replicas = *d.Spec.Replicas
	}
	return s
}

// Settled reports whether the Deployment's replica count is within r and every replica is
// updated, ready and available, with the latest generation observed.
func (s DeploymentState) Settled(r Range) bool {
	return s.Observed && s.Replicas >= r.Min && s.Replicas <= r.Max &&
		s.Current == s.Replicas && s.Updated == s.Replicas && s.Ready == s.Replicas && s.Available == s.Replicas
}

// TimeoutError is a step or rollback that did not settle in time.
type TimeoutError struct {
	What     string
	Last     DeploymentState
	Range    Range
	NotReady []string // the pods that were not Ready at the timeout, each with why
}

func (e *TimeoutError) Error() string {
	s := fmt.Sprintf("%s: the Deployment did not reach %s ready replicas in time (last seen %s)", e.What, e.Range, e.Last)
	if len(e.NotReady) > 0 {
		s += "; not Ready: " + strings.Join(e.NotReady, ", ")
	}
	return s
}

// waitSettled watches (never polls) the Deployment until it is settled in r or ctx ends. The
// caller bounds ctx with the step timeout. onChange is called with each new state.
func waitSettled(ctx context.Context, r *Runner, name string, want Range, what string, onChange func(DeploymentState)) (DeploymentState, error) {
	deps := r.Client.AppsV1().Deployments(r.Namespace)
	lw := namedListWatch(name, deps.List, deps.Watch)
	var last DeploymentState
	_, err := watchtools.UntilWithSync(ctx, lw, &appsv1.Deployment{}, nil, func(ev watch.Event) (bool, error) {
		switch ev.Type {
		case watch.Deleted:
			return false, fmt.Errorf("Deployment %s/%s was deleted during the rollout", r.Namespace, name)
		case watch.Error:
			return false, nil
		}
		d, ok := ev.Object.(*appsv1.Deployment)
		if !ok {
			return false, nil
		}
		s := StateOf(d)
		if s != last && onChange != nil {
			onChange(s)
		}
		last = s
		return s.Settled(want), nil
	})
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, watchtools.ErrWatchClosed) || errors.Is(err, context.DeadlineExceeded) {
			if c := context.Cause(ctx); c != nil && !errors.Is(c, context.DeadlineExceeded) {
				return last, c
			}
			return last, &TimeoutError{What: what, Last: last, Range: want}
		}
		return last, err
	}
	return last, nil
}

// namedListWatch lists and watches, with list and watch, only the object called name.
func namedListWatch[L runtime.Object](name string, list func(context.Context, v1.ListOptions) (L, error), watchF func(context.Context, v1.ListOptions) (watch.Interface, error)) *cache.ListWatch {
	sel := fields.OneTermEqualSelector("metadata.name", name).String()
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o v1.ListOptions) (runtime.Object, error) {
			o.FieldSelector = sel
			return list(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o v1.ListOptions) (watch.Interface, error) {
			o.FieldSelector = sel
			return watchF(ctx, o)
		},
	}
}

// watchSpec watches the HPA until its spec differs from what j expects, then returns an
// *InterferenceError; it returns nil when ctx ends first.
func watchSpec(ctx context.Context, r *Runner, j *Journal) error {
	hpas := r.Client.AutoscalingV2().HorizontalPodAutoscalers(r.Namespace)
	lw := namedListWatch(r.HPA, hpas.List, hpas.Watch)
	expected, digest := j.Expected, j.Original.SpecDigest
	var found error
	_, err := watchtools.UntilWithSync(ctx, lw, &autoscalingv2.HorizontalPodAutoscaler{}, nil, func(ev watch.Event) (bool, error) {
		if ev.Type == watch.Deleted {
			found = &InterferenceError{Namespace: r.Namespace, HPA: r.HPA, Change: "the HPA was deleted"}
			return true, nil
		}
		h, ok := ev.Object.(*autoscalingv2.HorizontalPodAutoscaler)
		if !ok {
			return false, nil
		}
		if ch := SpecChange(h, expected, digest); ch != "" {
			found = &InterferenceError{Namespace: r.Namespace, HPA: r.HPA, Change: ch, By: lastSpecWriter(h)}
			return true, nil
		}
		return false, nil
	})
	if found != nil {
		return found
	}
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("watching HPA %s/%s: %w", r.Namespace, r.HPA, err)
	}
	return nil
}

// InterferenceError is someone else's change to the HPA's spec during a rollout.
type InterferenceError struct {
	Namespace, HPA string
	Change         string
	By             string
}

func (e *InterferenceError) Error() string {
	by := ""
	if e.By != "" {
		by = " by " + e.By
	}
	return fmt.Sprintf("HPA %s/%s was changed%s during the rollout (%s): stopped without touching it; the journal stays (osctl rollout status shows it; a forced osctl rollout undo restores the original range)",
		e.Namespace, e.HPA, by, e.Change)
}
