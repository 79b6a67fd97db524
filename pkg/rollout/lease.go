package rollout

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/k8s"
)

// DefaultLeaseDuration is how long a rollout's Lease stays valid after its last renewal.
const DefaultLeaseDuration = 30 * time.Second

// LeaseName returns the name of the Lease that guards rollouts of HPA hpa.
func LeaseName(hpa string) string {
	n := "osctl-rollout-" + hpa
	if len(n) > 253 {
		n = n[:253]
	}
	return n
}

// LeaseInfo is who holds a rollout's Lease, as read at ObservedAt on this machine's clock.
// RenewTime and Expires are the holder's word, on the holder's clock: status shows them, but
// whether the holder is gone is judged only by watching the Lease here (see AwaitLease).
type LeaseInfo struct {
	Name      string    `json:"name"`
	Holder    string    `json:"holder"`
	RenewTime time.Time `json:"renewTime"`
	Expires   time.Time `json:"expires"`
	Live      bool      `json:"live"` // by its renew time, on its holder's clock

	ResourceVersion string        `json:"-"`
	Duration        time.Duration `json:"-"` // its leaseDurationSeconds
	ObservedAt      time.Time     `json:"-"` // when this osctl read it, on its own clock
}

func leaseInfo(l *coordinationv1.Lease, now time.Time) *LeaseInfo {
	li := &LeaseInfo{Name: l.Name, ResourceVersion: l.ResourceVersion, ObservedAt: now, Duration: DefaultLeaseDuration}
	if l.Spec.HolderIdentity != nil {
		li.Holder = *l.Spec.HolderIdentity
	}
	if l.Spec.RenewTime != nil {
		li.RenewTime = l.Spec.RenewTime.Time
	} else if l.Spec.AcquireTime != nil {
		li.RenewTime = l.Spec.AcquireTime.Time
	}
	if l.Spec.LeaseDurationSeconds != nil && *l.Spec.LeaseDurationSeconds > 0 {
		li.Duration = time.Duration(*l.Spec.LeaseDurationSeconds) * time.Second
	}
	li.Expires = li.RenewTime.Add(li.Duration)
	li.Live = li.Holder != "" && now.Before(li.Expires)
	return li
}

// HeldByOther reports whether the Lease names a holder other than holder (an empty holder: this
// process has no name yet, so any holder is another).
func (l *LeaseInfo) HeldByOther(holder string) bool {
	return l != nil && l.Holder != "" && l.Holder != holder
}

// same reports whether o is the same record of the Lease as l (nobody wrote it in between).
func (l *LeaseInfo) same(o *LeaseInfo) bool {
	return o != nil && l.ResourceVersion == o.ResourceVersion && l.Holder == o.Holder && l.RenewTime.Equal(o.RenewTime)
}

// HeldError is returned when another osctl holds the rollout's Lease: it renewed it while this
// osctl watched.
type HeldError struct {
	Namespace, HPA string
	Lease          LeaseInfo
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("a rollout of HPA %s/%s is running: held by %s, which renewed Lease %s while this osctl watched (until %s by its holder's clock); wait for it, watch it with osctl rollout status, or take it over by force",
		e.Namespace, e.HPA, e.Lease.Holder, e.Lease.Name, e.Lease.Expires.UTC().Format(time.RFC3339))
}

// AwaitLease returns once the target's Lease is free for this runner: it has no holder, or it is
// this runner's own, or Force is set, or it stayed unchanged (same holder, renew time and
// resourceVersion) for a whole lease duration since this osctl first read it (t.Lease.ObservedAt),
// judged on this machine's clock only, as client-go's leader election does: another host's
// renew time, on a clock that may be skewed, never lets a takeover happen early. A Lease that
// changes meanwhile is live: *HeldError. notify (may be nil) is told once when it has to wait.
func (r *Runner) AwaitLease(ctx context.Context, t *Target, notify func(string)) error {
	if r.Force || !t.Lease.HeldByOther(r.Holder) {
		return nil
	}
	_, err := awaitLease(ctx, r.Client, r.Namespace, r.HPA, t.Lease, r.now, notify)
	return err
}

// awaitLease watches the Lease from obs until it has stayed unchanged for obs.Duration since
// obs.ObservedAt, or was released (no holder), and returns it as last read. Any other change, or
// the Lease gone, is a *HeldError (a Lease deleted by someone is no proof its holder is gone).
func awaitLease(ctx context.Context, c k8s.Interface, ns, hpa string, obs *LeaseInfo, now func() time.Time, notify func(string)) (*coordinationv1.Lease, error) {
	every := min(max(obs.Duration/6, 200*time.Millisecond), 2*time.Second)
	told := false
	for {
		cur, err := c.CoordinationV1().Leases(ns).Get(ctx, obs.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil, &HeldError{Namespace: ns, HPA: hpa, Lease: *obs}
		}
		if err != nil {
			return nil, fmt.Errorf("reading Lease %s/%s: %w", ns, obs.Name, err)
		}
		info := leaseInfo(cur, now())
		if info.Holder == "" {
			return cur, nil // released meanwhile: free
		}
		if !info.same(obs) {
			return nil, &HeldError{Namespace: ns, HPA: hpa, Lease: *info}
		}
		left := obs.Duration - now().Sub(obs.ObservedAt)
		if left <= 0 {
			return cur, nil
		}
		if !told && notify != nil {
			told = true
			notify(fmt.Sprintf("Lease %s is held by %s: waiting up to %s for it to stay unchanged before taking it over (its holder's clock is not trusted)", obs.Name, obs.Holder, left.Round(time.Second)))
		}
		select {
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-time.After(min(every, left)):
		}
	}
}

// ErrLeaseLost is the cause when another process took the rollout's Lease (with --force) or the
// Lease could not be renewed before it expired.
var ErrLeaseLost = errors.New("lost the rollout's Lease: another osctl took it over, or it could not be renewed in time")

// leaseKeeper holds a Lease and renews it until stopped.
// watch returns a context derived from ctx that ends, with cause ErrLeaseLost, as soon as the
// Lease is lost; cancel releases it.
func (k *leaseKeeper) watch(ctx context.Context) (context.Context, context.CancelFunc) {
	wctx, cancel := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-k.lost:
			cancel(ErrLeaseLost)
		case <-wctx.Done():
		}
	}()
	return wctx, func() { cancel(nil) }
}

type leaseKeeper struct {
	client   k8s.Interface
	ns, name string
	holder   string
	duration time.Duration
	now      func() time.Time

	mu    sync.Mutex
	lease *coordinationv1.Lease
	lost  chan struct{}
	once  sync.Once
	stop  chan struct{}
	done  chan struct{}
	taken *LeaseInfo // the live lease this keeper took over with force, if any
	began bool       // start was called (only from the runner's goroutine)
}

// start renews the Lease in the background until release.
func (k *leaseKeeper) start(ctx context.Context) {
	k.began = true
	go k.run(ctx)
}

// acquireLease takes the Lease for holder. A Lease of another holder is taken over with force at
// once; without, only once it stayed unchanged for its duration since obs (what the caller read
// before; nil: from now), on this machine's clock (awaitLease), else it is a *HeldError.
func acquireLease(ctx context.Context, c k8s.Interface, ns, hpa, holder string, d time.Duration, force bool, now func() time.Time, obs *LeaseInfo, notify func(string)) (*leaseKeeper, error) {
	k := &leaseKeeper{client: c, ns: ns, name: LeaseName(hpa), holder: holder, duration: d, now: now,
		lost: make(chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	secs := int32((d + time.Second - 1) / time.Second)
	leases := c.CoordinationV1().Leases(ns)
	cur, err := leases.Get(ctx, k.name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		t := metav1.NewMicroTime(now())
		l := &coordinationv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: k.name, Labels: map[string]string{"app.kubernetes.io/managed-by": "osctl"},
				Annotations: map[string]string{"osctl.io/hpa": hpa}},
			Spec: coordinationv1.LeaseSpec{HolderIdentity: &holder, LeaseDurationSeconds: &secs, AcquireTime: &t, RenewTime: &t},
		}
		created, err := leases.Create(ctx, l, metav1.CreateOptions{FieldManager: FieldManager})
		return k.keep(created, err, apierrors.IsAlreadyExists(err), "created", "try again", "creating")
	}
	if err != nil {
		return nil, fmt.Errorf("reading Lease %s/%s: %w", ns, k.name, err)
	}
	info := leaseInfo(cur, now())
	if info.HeldByOther(holder) {
		switch {
		case force:
			k.taken = info
		case obs != nil && !obs.HeldByOther(holder):
			// Free when the caller read it, held now: another osctl took it meanwhile.
			return nil, &HeldError{Namespace: ns, HPA: hpa, Lease: *info}
		default:
			if obs == nil {
				obs = info
			}
			if cur, err = awaitLease(ctx, c, ns, hpa, obs, now, notify); err != nil {
				return nil, err
			}
		}
	}
	t := metav1.NewMicroTime(now())
	l := cur.DeepCopy()
	l.Spec.HolderIdentity, l.Spec.LeaseDurationSeconds, l.Spec.AcquireTime, l.Spec.RenewTime = &holder, &secs, &t, &t
	tr := int32(1)
	if l.Spec.LeaseTransitions != nil {
		tr = *l.Spec.LeaseTransitions + 1
	}
	l.Spec.LeaseTransitions = &tr
	// The update carries the resourceVersion read: a renewal in between is a conflict.
	updated, err := leases.Update(ctx, l, metav1.UpdateOptions{FieldManager: FieldManager})
	return k.keep(updated, err, apierrors.IsConflict(err), "took", "see osctl rollout status", "taking")
}

// keep holds the Lease a create or an update (doing) returned. raced is the API's refusal
// because another osctl wrote the Lease at the same moment: the error says what it did (verb)
// and what to do then.
func (k *leaseKeeper) keep(l *coordinationv1.Lease, err error, raced bool, verb, then, doing string) (*leaseKeeper, error) {
	if raced {
		return nil, fmt.Errorf("another osctl %s the rollout Lease %s/%s at the same moment: %s", verb, k.ns, k.name, then)
	}
	if err != nil {
		return nil, fmt.Errorf("%s Lease %s/%s: %w", doing, k.ns, k.name, err)
	}
	k.lease = l
	return k, nil
}

// run renews the Lease every third of its duration until stop is closed. When a renewal finds
// another holder, or renewals keep failing until the Lease would expire, it closes lost.
func (k *leaseKeeper) run(ctx context.Context) {
	defer close(k.done)
	every := k.duration / 3
	if every < 200*time.Millisecond {
		every = 200 * time.Millisecond
	}
	t := time.NewTicker(every)
	defer t.Stop()
	lastOK := k.now()
	for {
		select {
		case <-k.stop:
			return
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rctx, cancel := context.WithTimeout(ctx, every)
		err := k.renew(rctx)
		cancel()
		if errors.Is(err, ErrLeaseLost) {
			k.markLost()
			return
		}
		if err == nil {
			lastOK = k.now()
		} else if k.now().Sub(lastOK) >= k.duration {
			k.markLost()
			return
		}
	}
}

func (k *leaseKeeper) markLost() { k.once.Do(func() { close(k.lost) }) }

func (k *leaseKeeper) renew(ctx context.Context) error {
	leases := k.client.CoordinationV1().Leases(k.ns)
	cur, err := leases.Get(ctx, k.name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return ErrLeaseLost
	}
	if err != nil {
		return err
	}
	if cur.Spec.HolderIdentity == nil || *cur.Spec.HolderIdentity != k.holder {
		return ErrLeaseLost
	}
	t := metav1.NewMicroTime(k.now())
	cur.Spec.RenewTime = &t
	updated, err := leases.Update(ctx, cur, metav1.UpdateOptions{FieldManager: FieldManager})
	if err != nil {
		return err
	}
	k.mu.Lock()
	k.lease = updated
	k.mu.Unlock()
	return nil
}

// release stops renewing and gives the Lease up (empty holder), unless it was lost.
func (k *leaseKeeper) release(ctx context.Context) {
	k.once.Do(func() {}) // a release is not a loss
	select {
	case <-k.stop:
	default:
		close(k.stop)
	}
	if k.began {
		<-k.done
	}
	select {
	case <-k.lost:
		return
	default:
	}
	leases := k.client.CoordinationV1().Leases(k.ns)
	for i := 0; i < 3; i++ {
		cur, err := leases.Get(ctx, k.name, metav1.GetOptions{})
		if err != nil || cur.Spec.HolderIdentity == nil || *cur.Spec.HolderIdentity != k.holder {
			return
		}
		empty := ""
		cur.Spec.HolderIdentity, cur.Spec.RenewTime, cur.Spec.AcquireTime = &empty, nil, nil
		if _, err := leases.Update(ctx, cur, metav1.UpdateOptions{FieldManager: FieldManager}); !apierrors.IsConflict(err) {
			return
		}
	}
}

// readLease returns the rollout's Lease, or nil when there is none.
func readLease(ctx context.Context, c k8s.Interface, ns, hpa string, now time.Time) (*LeaseInfo, error) {
	l, err := c.CoordinationV1().Leases(ns).Get(ctx, LeaseName(hpa), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return leaseInfo(l, now), nil
}
