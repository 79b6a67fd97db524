package stress

import (
	"context"
	"fmt"
	"sort"

	"github.com/osctl/osctl/pkg/k8s"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/osctl/osctl/pkg/preflight/workload"
)

// TierPod is one ready pod of the tier and its Passenger settings (MAX_POOL, MAX_REQUESTS).
type TierPod struct {
	Name      string
	Passenger workload.Passenger
}

// Tier is the capacity of the pods a run's load reaches, as `osctl preflight manifests` counts
// it: each ready pod holds MAX_POOL requests served plus MAX_REQUESTS queued.
type Tier struct {
	What     string    // what was read, e.g. "Deployment openstudio/web"
	Pods     []TierPod // the ready pods, by name
	Capacity int       // the sum of their pool + queue
}

// TierOfPods is the tier of pods: the ready ones (not being deleted) count, each with its own
// Passenger settings (they differ mid-rollout).
func TierOfPods(what string, pods []corev1.Pod) *Tier {
	t := &Tier{What: what}
	for i := range pods {
		p := &pods[i]
		if !k8s.Ready(p) {
			continue
		}
		ps := workload.PassengerOf(p.Spec)
		t.Pods = append(t.Pods, TierPod{Name: p.Name, Passenger: ps})
		t.Capacity += ps.Capacity()
	}
	sort.Slice(t.Pods, func(i, j int) bool { return t.Pods[i].Name < t.Pods[j].Name })
	return t
}

// ReadTier is the tier of the pods selector matches in namespace.
func ReadTier(ctx context.Context, cs k8s.Interface, namespace, what string, selector labels.Selector) (*Tier, error) {
	l, err := cs.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{LabelSelector: selector.String()})
	if err != nil {
		return nil, fmt.Errorf("listing the pods of %s: %w", what, err)
	}
	return TierOfPods(what, l.Items), nil
}

// DeploymentTier is the tier of the Deployment's pods (its selector's).
func DeploymentTier(ctx context.Context, cs k8s.Interface, namespace, name string) (*Tier, error) {
	what := "Deployment " + namespace + "/" + name
	d, err := cs.AppsV1().Deployments(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, fmt.Errorf("%s: its selector: %w", what, err)
	}
	return ReadTier(ctx, cs, namespace, what, sel)
}

// fromEnv says whether every ready pod sets MAX_POOL or MAX_REQUESTS itself (none: false).
func (t *Tier) fromEnv() bool {
	for _, p := range t.Pods {
		if p.Passenger.Source == workload.PassengerDefaultsSource {
			return false
		}
	}
	return len(t.Pods) > 0
}

// Sizing says how the tier sizes the run: capacity in words, e.g. "2 ready pods x (MAX_POOL 16
// + MAX_REQUESTS 50) = 132" (per pod when the pods differ).
func (t *Tier) Sizing() string {
	if len(t.Pods) == 0 {
		return "no ready pod = 0"
	}
	first := t.Pods[0].Passenger
	same := true
	for _, p := range t.Pods[1:] {
		if p.Passenger.Pool != first.Pool || p.Passenger.Queue != first.Queue {
			same = false
		}
	}
	if !same {
		return fmt.Sprintf("%d ready pods with their own MAX_POOL + MAX_REQUESTS = %d", len(t.Pods), t.Capacity)
	}
	return fmt.Sprintf("%d ready pod%s x (MAX_POOL %d + MAX_REQUESTS %d) = %d", len(t.Pods), plural(len(t.Pods)), first.Pool, first.Queue, t.Capacity)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// SizeToTier applies the tier to c before the load: with ConcurrencyAuto, Concurrency becomes
// the tier's capacity (an error when no pod is ready); otherwise a Concurrency beyond the
// capacity gives a one-line warning naming both. note is the line to show ("" for none). The
// entrypoint's defaults count for a profile whose targets are OpenStudio's pods
// (history.Profile.Passenger) only: for another, pods that set
// neither MAX_POOL nor MAX_REQUESTS have no known capacity (nothing said; auto is an error).
func SizeToTier(c *Config, t *Tier) (note string, err error) {
	// The entrypoint's defaults are OpenStudio's: another target (elb-openapi, a plain route)
	// has a Passenger capacity only where its pods say so.
	if !c.Kind().Passenger && !t.fromEnv() {
		if c.ConcurrencyAuto {
			return "", fieldErr("Concurrency", "auto: the ready pods of %s set no MAX_POOL or MAX_REQUESTS, so their capacity is not known: give {Concurrency} N", t.What)
		}
		return "", nil
	}
	if c.ConcurrencyAuto {
		if t.Capacity < 1 {
			return "", fieldErr("Concurrency", "auto: %s has no ready pod to size the load to: wait for its pods to be Ready, or give {Concurrency} N", t.What)
		}
		c.Concurrency = t.Capacity
		return fmt.Sprintf("{Concurrency} auto: %d, the capacity of %s (%s)", t.Capacity, t.What, t.Sizing()), nil
	}
	if c.Concurrency > t.Capacity {
		return fmt.Sprintf("{Concurrency} %d is beyond the capacity of %s, %d concurrent requests (%s): the rest wait in the load balancer or get 503 Request queue full, and the run may stop early or come out inconclusive; use {Concurrency} auto or at most %d",
			c.Concurrency, t.What, t.Capacity, t.Sizing(), t.Capacity), nil
	}
	return "", nil
}
