package rollout_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/rollouttest"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/rollout"
)

// podQuota caps the namespace's pods. The harness runs no resource-quota controller, so the
// test fills in the quota's status (hard, and the pods running now) that admission enforces.
func podQuota(t *testing.T, w *rollouttest.Workload, pods string) {
	t.Helper()
	ctx := context.Background()
	cs := w.K.Clients.Clientset
	q := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "pods"},
		Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{corev1.ResourcePods: resource.MustParse(pods)}}}
	q, err := cs.CoreV1().ResourceQuotas(w.NS).Create(ctx, q, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := cs.CoreV1().Pods(w.NS).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range l.Items {
		if p.DeletionTimestamp == nil {
			n++
		}
	}
	q.Status.Hard = q.Spec.Hard
	q.Status.Used = corev1.ResourceList{corev1.ResourcePods: *resource.NewQuantity(int64(n), resource.DecimalSI)}
	if _, err := cs.CoreV1().ResourceQuotas(w.NS).UpdateStatus(ctx, q, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// A step whose replicas cannot all start (a pod quota) times out and rolls back.
func TestStepTimeoutRollsBack(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	w := rollouttest.New(t, k, rollouttest.Options{})
	podQuota(t, w, "2")
	r := runner(w, "test-timeout")
	p := plan([]int32{2, 3}, nil)
	p.StepTimeout.Duration = 8 * time.Second
	out, err := r.Run(context.Background(), mustInspect(t, r), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	var te *rollout.TimeoutError
	if out.Phase != rollout.PhaseRolledBack || !errors.As(out.Err, &te) || !strings.Contains(out.Reason, "step 2 (3 replicas)") {
		t.Fatalf("outcome %s: %v; want rolled back after step 2 timed out", out.Phase, out.Err)
	}
	if min, max, _ := w.HPA(t); min != 1 || max != 1 {
		t.Fatalf("HPA %d-%d, want 1-1", min, max)
	}
	w.WaitSettled(t, 1, 5*time.Second)
}

// quotaGate fails once, after lowering the pod quota so that the rollback cannot scale back up.
type quotaGate struct {
	w     *rollouttest.Workload
	t     *testing.T
	fired atomic.Bool
}

func (g *quotaGate) Name() string { return "quota" }

func (g *quotaGate) Check(ctx context.Context) rollout.GateResult {
	if g.fired.CompareAndSwap(false, true) {
		podQuota(g.t, g.w, "1")
	}
	return rollout.GateResult{Status: preflight.Fail, Message: "test gate fails"}
}

// A rollback that cannot complete leaves phase rollback-failed in the journal; undo finishes it
// once the cluster allows.
func TestRollbackFailsThenUndo(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	w := rollouttest.New(t, k, rollouttest.Options{Min: 2, Max: 2})
	r := runner(w, "test-rbfail")
	r.RollbackTimeout = 6 * time.Second
	out, err := r.Run(context.Background(), mustInspect(t, r), plan([]int32{1}, nil), []rollout.Gate{&quotaGate{w: w, t: t}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Phase != rollout.PhaseRollbackFailed || !strings.Contains(out.Reason, "rollback") {
		t.Fatalf("outcome %s (%s), want rollback-failed", out.Phase, out.Reason)
	}
	j := mustInspect(t, r).Journal
	if j.Phase != rollout.PhaseRollbackFailed || j.Rollback == nil || *j.Rollback != (rollout.Range{Min: 2, Max: 2}) {
		t.Fatalf("journal %+v", j)
	}
	if _, err := r.Resume(context.Background(), mustInspect(t, r), nil); err == nil || !strings.Contains(err.Error(), "undo") {
		t.Fatalf("resume of a failed rollback should point to undo: %v", err)
	}
	if err := k.Clients.Clientset.CoreV1().ResourceQuotas(w.NS).Delete(context.Background(), "pods", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	r2 := runner(w, "test-undo")
	out, err = r2.Undo(context.Background(), mustInspect(t, r2))
	if err != nil {
		t.Fatal(err)
	}
	if out.Phase != rollout.PhaseUndone {
		t.Fatalf("undo: %s (%s)", out.Phase, out.Reason)
	}
	w.WaitSettled(t, 2, 10*time.Second)
}
