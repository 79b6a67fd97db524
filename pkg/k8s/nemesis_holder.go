package k8s

import (
	"context"
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/osctl/osctl/pkg/nemesis"
)

// checkHolder refuses a holder kind that cannot find a holder: kill-holder needs Holders, and a
// pod cannot be paused.
func (p *PodNemesis) checkHolder(f nemesis.Fault) error {
	switch {
	case f.Kind.Pauses():
		return fmt.Errorf("%v: a pod cannot be paused through the Kubernetes API; on Kubernetes use kill-holder", f)
	case p.Holders == nil:
		return fmt.Errorf("%v: on Kubernetes osctl reads who holds a lock on the Redis masters: pass them with {Nemesis.Redis}", f)
	}
	return nil
}

// InjectHolder waits until a running web pod holds a lock (its holder value names the pod, in
// this namespace or in none), then deletes that pod with grace 0 and its UID as precondition.
func (p *PodNemesis) InjectHolder(ctx context.Context, f nemesis.Fault) (string, nemesis.HeldLock, func() error, error) {
	if err := p.checkHolder(f); err != nil {
		return "", nemesis.HeldLock{}, nil, err
	}
	seen := nemesis.Seen{}
	for {
		pods, err := p.running(nemesis.KillReplica)
		if err != nil {
			return "", nemesis.HeldLock{}, nil, err
		}
		held, err := p.Holders(ctx)
		if err != nil && ctx.Err() == nil {
			return "", nemesis.HeldLock{}, nil, err
		}
		now := time.Now()
		seen.Note(held, now)
		for _, h := range held {
			pod, ok := holderPod(pods, h, p.Namespace)
			if !ok {
				continue
			}
			hl := nemesis.HeldLock{Key: h.Key, Holder: h.Host + ":" + strconv.Itoa(h.PID), HeldFor: nemesis.Duration(seen.HeldFor(h, 0, now))}
			target, err := p.deletePod(pod)
			return target, hl, nil, err
		}
		select {
		case <-ctx.Done():
			return "", nemesis.HeldLock{}, nil, nemesis.ErrNoHolder
		case <-time.After(10 * nemesis.PollEvery):
		}
	}
}

// holderPod is the running pod h's holder value names: its host is the pod's name, and its
// namespace, when the value records one, is ns.
func holderPod(pods []corev1.Pod, h nemesis.Held, ns string) (corev1.Pod, bool) {
	if h.Namespace != "" && h.Namespace != ns {
		return corev1.Pod{}, false
	}
	for _, pod := range pods {
		if pod.Name == h.Host {
			return pod, true
		}
	}
	return corev1.Pod{}, false
}
