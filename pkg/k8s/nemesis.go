package k8s

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/osctl/osctl/pkg/nemesis"
)

// The chart's labels of the web pods and of the Redis pod.
const (
	DefaultWebSelector   = "app=web"
	DefaultRedisSelector = "app=redis"
)

// apiTimeout bounds one list or delete of the nemesis.
const apiTimeout = 10 * time.Second

// PodNemesis injects faults (a nemesis.Injector) into a workload on Kubernetes, as Chaos Mesh's
// and Litmus' pod-kill do: kill-replica deletes one running web pod with grace 0 (its
// ReplicaSet makes another), restart-redis deletes the Redis pod (its controller starts it
// again, empty unless it persists). A pod cannot be paused through the API, so the pause kinds
// are refused before any load.
type PodNemesis struct {
	Clientset Interface
	Namespace string
	// WebSelector and RedisSelector are label selectors of the pods each kind may hit.
	WebSelector, RedisSelector string
	// Holders reads the locks held on the masters, for kill-holder (nil: no masters given).
	Holders func(ctx context.Context) ([]nemesis.Held, error)

	mu  sync.Mutex
	rng *rand.Rand
}

// NewPodNemesis returns the injector of the pods in namespace, choosing its targets with seed.
func NewPodNemesis(cs Interface, namespace, web, redis string, seed uint64) *PodNemesis {
	return &PodNemesis{Clientset: cs, Namespace: namespace, WebSelector: web, RedisSelector: redis,
		rng: rand.New(rand.NewPCG(seed, seed^0x6b756265))}
}

func (p *PodNemesis) selector(k nemesis.Kind) string {
	if k.HitsRedis() {
		return p.RedisSelector
	}
	return p.WebSelector
}

// Check refuses pauses, and a kind whose selector matches no running pod now.
func (p *PodNemesis) Check(faults []nemesis.Fault) error {
	for _, f := range faults {
		if f.Kind.TargetsHolder() {
			if err := p.checkHolder(f); err != nil {
				return err
			}
		}
		if f.Kind.Pauses() {
			return fmt.Errorf("%v: a pod cannot be paused through the Kubernetes API; on Kubernetes use kill-replica and restart-redis", f)
		}
		if sel, err := labels.Parse(p.selector(f.Kind)); err != nil || sel.Empty() {
			return fmt.Errorf("%v: selector %q does not name the pods it may hit (an empty one selects every pod)", f, p.selector(f.Kind))
		}
		pods, err := p.running(f.Kind)
		if err != nil {
			return fmt.Errorf("%v: %v", f, err)
		}
		if len(pods) == 0 {
			return fmt.Errorf("%v: no running pod in namespace %s matches %s", f, p.Namespace, p.selector(f.Kind))
		}
	}
	return nil
}

// running lists the pods of kind k that run and are not being deleted, by name.
func (p *PodNemesis) running(k nemesis.Kind) ([]corev1.Pod, error) {
	ctx, cancel := context.WithTimeout(context.Background(), apiTimeout)
	defer cancel()
	list, err := p.Clientset.CoreV1().Pods(p.Namespace).List(ctx, metav1.ListOptions{LabelSelector: p.selector(k)})
	if err != nil {
		return nil, fmt.Errorf("listing pods %s in %s: %v", p.selector(k), p.Namespace, err)
	}
	var out []corev1.Pod
	for _, pod := range list.Items {
		if pod.DeletionTimestamp == nil && pod.Status.Phase == corev1.PodRunning {
			out = append(out, pod)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Inject deletes, with grace 0, one running pod of f's kind chosen by the seeded generator.
func (p *PodNemesis) Inject(f nemesis.Fault) (string, func() error, error) {
	if f.Kind.Pauses() {
		return "", nil, fmt.Errorf("a pod cannot be paused through the Kubernetes API")
	}
	pods, err := p.running(f.Kind)
	if err != nil {
		return "", nil, err
	}
	if len(pods) == 0 {
		return "", nil, fmt.Errorf("no running pod in namespace %s matches %s", p.Namespace, p.selector(f.Kind))
	}
	p.mu.Lock()
	victim := pods[p.rng.IntN(len(pods))]
	p.mu.Unlock()
	target, err := p.deletePod(victim)
	return target, nil, err
}

// deletePod deletes victim with grace 0, its UID as precondition (a pod of the same name made
// since is never hit).
func (p *PodNemesis) deletePod(victim corev1.Pod) (string, error) {
	target := "pod " + p.Namespace + "/" + victim.Name
	ctx, cancel := context.WithTimeout(context.Background(), apiTimeout)
	defer cancel()
	zero := int64(0)
	uid := victim.UID
	err := p.Clientset.CoreV1().Pods(p.Namespace).Delete(ctx, victim.Name, metav1.DeleteOptions{
		GracePeriodSeconds: &zero, Preconditions: &metav1.Preconditions{UID: &uid}})
	if err != nil {
		return target, fmt.Errorf("deleting %s: %v", target, err)
	}
	return target, nil
}
