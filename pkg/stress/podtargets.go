package stress

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// PodTargets are a run's targets when they are a workload's ready pods (osctl stress
// --target-pods): pkg/k8s.PodForwarder keeps a port-forward open to each, and each Sync
// re-lists the pods and says which were taken in (with their forwards' URLs) and which let go.
type PodTargets interface {
	Sync(ctx context.Context) ([]k8s.PodChange, error)
	Selector() string
	Namespace() string
}

// defaultPodsEvery is how often the pods are re-listed while the load runs.
const defaultPodsEvery = time.Second

// podTargets is the run's side of its PodTargets: which pod each URL is, the live pool the load
// is sent to, and what was taken in and let go during the load.
type podTargets struct {
	src   PodTargets
	podOf map[string]string // URL -> pod
	pool  *profile.Pool
	added []history.TargetInfo
	gone  []string
}

// firstPods lists the ready pods once, before the run: their forwards' URLs are its targets.
func firstPods(ctx context.Context, src PodTargets, allowStart bool) (*podTargets, []*url.URL, error) {
	pt := &podTargets{src: src, podOf: map[string]string{}, pool: &profile.Pool{AllowStart: allowStart}}
	changes, err := src.Sync(ctx)
	var urls []*url.URL
	for _, ch := range changes {
		if ch.Gone {
			continue
		}
		u, perr := url.Parse(ch.URL)
		if perr != nil {
			return nil, nil, perr
		}
		pt.podOf[ch.URL] = ch.Pod
		urls = append(urls, u)
	}
	if len(urls) == 0 {
		if err != nil {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("no ready pod matches %s in namespace %s", src.Selector(), src.Namespace())
	}
	return pt, urls, nil
}

// nameTargets sets the pod of each target the header names.
func (pt *podTargets) nameTargets(infos []history.TargetInfo) {
	for i := range infos {
		infos[i].Pod = pt.podOf[infos[i].URL]
	}
}

// watch re-lists the pods every d.PodsEvery while the load runs; the function it returns stops
// that, once the load is over, and lists them a last time (the read-backs go to the live pods).
func (r *runner) watchPods(ctx context.Context) func() {
	pt := r.pods
	if pt == nil {
		return func() {}
	}
	stop, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		t := time.NewTicker(cmp.Or(r.d.PodsEvery, defaultPodsEvery))
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				r.syncPods(ctx)
			}
		}
	}()
	return func() {
		close(stop)
		<-ended
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		r.syncPods(sctx)
	}
}

// syncPods re-lists the pods once: a pod let go leaves the pool (no new request goes to it; its
// requests in flight end as its forward or process does), a new ready pod is probed and joins it.
func (r *runner) syncPods(ctx context.Context) {
	pt := r.pods
	changes, err := pt.src.Sync(ctx)
	if err != nil && ctx.Err() == nil {
		r.notice("re-listing the target pods: %v", err)
	}
	for _, ch := range changes {
		if ch.Gone {
			if pt.pool.Remove(ch.URL) {
				pt.gone = append(pt.gone, ch.URL)
				r.notice("pod %s was let go during the load (no longer ready, or deleted): no new request went to it, and its requests in flight when it went are ambiguous", ch.Pod)
			}
			continue
		}
		u, perr := url.Parse(ch.URL)
		if perr != nil {
			continue
		}
		t := profile.Target{URL: u, Reachable: true}
		if s, ok := r.fleet.(*Sender); ok && r.cfg.Kind().Probes {
			t = s.ProbeTarget(ctx, u)
		}
		if !t.Reachable { // as a first target that does not answer fails the run, it gets no load
			r.notice("pod %s is ready but its forward %s did not answer the probe: it is not taken in", ch.Pod, u.Redacted())
			continue
		}
		pt.pool.Add(t)
		if _, known := pt.podOf[ch.URL]; known { // ready again
			pt.gone = slices.DeleteFunc(pt.gone, func(g string) bool { return g == ch.URL })
			continue
		}
		pt.podOf[ch.URL] = ch.Pod
		ti := targetInfo(t, t.Status.Sandbox || r.cfg.startAllowed())
		ti.Pod, ti.Added = ch.Pod, true
		pt.added = append(pt.added, ti)
		r.notice("pod %s was taken in during the load (it became ready)", ch.Pod)
	}
}

// liveTargets are the targets now: the live pods' (Deps.Pods), else the run's.
func (r *runner) liveTargets() []profile.Target {
	if r.pods != nil {
		if live := r.pods.pool.Live(); len(live) > 0 {
			return live
		}
	}
	return r.targets
}
