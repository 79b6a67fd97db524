package rollout_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/rollouttest"
	"github.com/osctl/osctl/pkg/rollout"
)

// TestSkewedLeaseIsJudgedOnTheLocalClock: another osctl holds the rollout's Lease from a host
// whose clock is an hour behind, so its renew time is far in the past. While it keeps renewing,
// no rollout takes the Lease over (the renew time alone would say it expired an hour ago); once
// it stops, a rollout takes it over only after the Lease stayed unchanged for its duration while
// this osctl watched.
func TestSkewedLeaseIsJudgedOnTheLocalClock(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	w := rollouttest.New(t, k, rollouttest.Options{})
	ctx := context.Background()
	leases := k.Clients.Clientset.CoordinationV1().Leases(w.NS)
	holder, secs := "admin@skewed-host pid 4242 (5ca1ab)", int32(4)
	anHourAgo := func() *metav1.MicroTime { m := metav1.NewMicroTime(time.Now().Add(-time.Hour)); return &m }
	_, err := leases.Create(ctx, &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: rollout.LeaseName("web")},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: &holder, LeaseDurationSeconds: &secs, AcquireTime: anHourAgo(), RenewTime: anHourAgo()}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	// Alive: it renews every 300 ms, its renew time an hour behind each time.
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			case <-time.After(300 * time.Millisecond):
			}
			if l, err := leases.Get(ctx, rollout.LeaseName("web"), metav1.GetOptions{}); err == nil {
				l.Spec.RenewTime = anHourAgo()
				_, _ = leases.Update(ctx, l, metav1.UpdateOptions{})
			}
		}
	}()
	r := runner(w, "osctl-here")
	tg := mustInspect(t, r)
	if tg.Lease == nil || tg.Lease.Live || tg.Lease.Holder != holder {
		t.Fatalf("the Lease as read: %+v; want %s's, expired by its renew time", tg.Lease, holder)
	}
	_, err = r.Run(ctx, tg, plan([]int32{1}, nil), nil)
	close(stop)
	<-stopped
	var he *rollout.HeldError
	if !errors.As(err, &he) || he.Lease.Holder != holder || !strings.Contains(err.Error(), "while this osctl watched") {
		t.Fatalf("a rollout while the skewed holder renews: %v; want a HeldError naming it", err)
	}
	if _, _, ann := w.HPA(t); ann[rollout.AnnotationJournal] != "" {
		t.Fatalf("the refused rollout wrote a journal: %s", ann[rollout.AnnotationJournal])
	}
	if l, err := leases.Get(ctx, rollout.LeaseName("web"), metav1.GetOptions{}); err != nil || *l.Spec.HolderIdentity != holder {
		t.Fatalf("the Lease after the refusal: %v %v", l, err)
	}

	// Gone: the Lease no longer changes. The rollout waits until it stayed unchanged for 4 s on
	// this machine's clock, then takes it over and runs.
	r2 := runner(w, "osctl-here-2")
	var waited atomic.Bool
	var firstStep atomic.Value
	r2.Observer = func(p rollout.Progress) {
		if p.Kind == rollout.ProgressInfo && strings.Contains(p.Message, "waiting up to") && strings.Contains(p.Message, holder) {
			waited.Store(true)
		}
		if p.Kind == rollout.ProgressStep && firstStep.Load() == nil {
			firstStep.Store(p.Time)
		}
	}
	tg = mustInspect(t, r2)
	out, err := r2.Run(ctx, tg, plan([]int32{1}, nil), nil)
	if err != nil || out.Phase != rollout.PhaseCompleted {
		t.Fatalf("the rollout after the holder stopped: %+v %v", out, err)
	}
	at, _ := firstStep.Load().(time.Time)
	if !waited.Load() || at.Sub(tg.Lease.ObservedAt) < time.Duration(secs)*time.Second {
		t.Fatalf("took the Lease over %s after first reading it (waited: %v); want at least its duration %ds", at.Sub(tg.Lease.ObservedAt), waited.Load(), secs)
	}
}
