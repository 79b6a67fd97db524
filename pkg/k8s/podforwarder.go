package k8s

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
)

// PodChange is a pod a PodForwarder took in (its forward's URL) or let go (Gone).
type PodChange struct {
	Pod  string
	URL  string // http://127.0.0.1:PORT, the pod's port-forward
	Gone bool
}

// PodForwarder keeps one port-forward open to each ready pod that a label selector (or a
// Service's selector) matches: each Sync re-lists the pods, opens a forward to each pod that
// became ready, and lets go of each pod that is no longer ready, is being deleted or is gone
// (its forward is closed once the pod no longer exists, so that requests already sent to it end
// as the pod ends). Close closes every forward.
type PodForwarder struct {
	c         *Clients
	namespace string
	selector  string
	port      int                 // 0: svcPort's target port, else each pod's first container port
	svcPort   *corev1.ServicePort // the first port of the Service named (nil: a selector was given)

	mu   sync.Mutex
	pods map[string]*podForward
}

type podForward struct {
	uid  types.UID
	fwd  *Forward
	live bool // taken in, not let go
}

// NewPodForwarder resolves what (a label selector, such as app=web, or the name of a Service,
// meaning its selector) in namespace. port 0 forwards to each pod's first container port.
func NewPodForwarder(ctx context.Context, c *Clients, namespace, what string, port int) (*PodForwarder, error) {
	sel, svcPort, err := podSelector(ctx, c, namespace, what)
	if err != nil {
		return nil, err
	}
	return &PodForwarder{c: c, namespace: namespace, selector: sel, port: port, svcPort: svcPort, pods: map[string]*podForward{}}, nil
}

// podSelector is what as a label selector: a Service's selector when a Service of that name
// exists and what is no selector of its own (no '=', '!' or ' in '), with the Service's first
// port (nil for a selector, or a Service without ports).
func podSelector(ctx context.Context, c *Clients, ns, what string) (string, *corev1.ServicePort, error) {
	what = strings.TrimSpace(what)
	if what == "" {
		return "", nil, fmt.Errorf("an empty selector would take every pod in %s: name the pods, e.g. app=web, or their Service", ns)
	}
	if isName(what) {
		svc, err := c.Clientset.CoreV1().Services(ns).Get(ctx, what, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			return "", nil, fmt.Errorf("no Service %s in namespace %s: give a Service's name or a label selector such as app=web", what, ns)
		case err != nil:
			return "", nil, fmt.Errorf("reading Service %s/%s: %v", ns, what, err)
		case len(svc.Spec.Selector) == 0:
			return "", nil, fmt.Errorf("Service %s/%s has no selector: give the pods' label selector", ns, what)
		}
		var sp *corev1.ServicePort
		if len(svc.Spec.Ports) > 0 {
			sp = &svc.Spec.Ports[0]
		}
		return labels.SelectorFromSet(svc.Spec.Selector).String(), sp, nil
	}
	if _, err := labels.Parse(what); err != nil {
		return "", nil, fmt.Errorf("%q is neither a label selector nor a Service name: %v", what, err)
	}
	return what, nil, nil
}

// isName reports whether s is a plain name (a Service's), not a selector.
func isName(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// Selector is the label selector the pods are matched by.
func (p *PodForwarder) Selector() string { return p.selector }

// Namespace is the pods' namespace.
func (p *PodForwarder) Namespace() string { return p.namespace }

// Sync re-lists the pods once and returns what changed, pods taken in before pods let go, each
// in name order. A pod whose forward cannot be opened is not taken in (the error says which);
// the next Sync tries it again.
func (p *PodForwarder) Sync(ctx context.Context) ([]PodChange, error) {
	ctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	list, err := p.c.Clientset.CoreV1().Pods(p.namespace).List(ctx, metav1.ListOptions{LabelSelector: p.selector})
	if err != nil {
		return nil, fmt.Errorf("listing pods %s in %s: %v", p.selector, p.namespace, err)
	}
	sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
	p.mu.Lock()
	defer p.mu.Unlock()
	var added, gone []PodChange
	var firstErr error
	exists := map[string]bool{}
	for i := range list.Items {
		pod := &list.Items[i]
		exists[pod.Name] = true
		pf := p.pods[pod.Name]
		// The same name but another pod (a StatefulSet's), or a forward that ended: let it go; a
		// new forward once the pod is ready.
		if pf != nil && (pf.uid != pod.UID || pf.fwd.Err() != nil) {
			gone = append(gone, p.drop(pod.Name)...)
			pf = nil
		}
		ready := Ready(pod)
		switch {
		case ready && pf == nil:
			ch, err := p.open(ctx, pod)
			if err != nil {
				firstErr = cmp.Or(firstErr, err)
				continue
			}
			added = append(added, ch)
		case ready && !pf.live:
			pf.live = true
			added = append(added, PodChange{Pod: pod.Name, URL: "http://" + pf.fwd.LocalAddr})
		case !ready && pf != nil && pf.live:
			pf.live = false
			gone = append(gone, PodChange{Pod: pod.Name, URL: "http://" + pf.fwd.LocalAddr, Gone: true})
		}
	}
	for name := range p.pods {
		if !exists[name] {
			gone = append(gone, p.drop(name)...)
		}
	}
	sort.Slice(gone, func(i, j int) bool { return gone[i].Pod < gone[j].Pod })
	return append(added, gone...), firstErr
}

// open opens pod's forward and takes it in.
func (p *PodForwarder) open(ctx context.Context, pod *corev1.Pod) (PodChange, error) {
	port := p.port
	if port == 0 && p.svcPort != nil {
		tp, err := targetPort(pod, p.svcPort)
		if err != nil {
			return PodChange{}, err
		}
		port = tp
	}
	if port == 0 {
		for _, c := range pod.Spec.Containers {
			if len(c.Ports) > 0 {
				port = int(c.Ports[0].ContainerPort)
				break
			}
		}
		if port == 0 {
			return PodChange{}, fmt.Errorf("pod %s/%s declares no container port: give the port to forward to", p.namespace, pod.Name)
		}
	}
	f, err := ForwardPod(ctx, p.c, p.namespace, pod.Name, port)
	if err != nil {
		return PodChange{}, err
	}
	p.pods[pod.Name] = &podForward{uid: pod.UID, fwd: f, live: true}
	return PodChange{Pod: pod.Name, URL: "http://" + f.LocalAddr}, nil
}

// drop closes name's forward; it returns the change when the pod was still taken in.
func (p *PodForwarder) drop(name string) []PodChange {
	pf := p.pods[name]
	delete(p.pods, name)
	pf.fwd.Close()
	if pf.live {
		return []PodChange{{Pod: name, URL: "http://" + pf.fwd.LocalAddr, Gone: true}}
	}
	return nil
}

// Close closes every forward.
func (p *PodForwarder) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for name := range p.pods {
		p.drop(name)
	}
}
