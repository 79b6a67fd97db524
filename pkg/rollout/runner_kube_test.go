package rollout_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/rollouttest"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/nfscheck"
	"github.com/osctl/osctl/pkg/rollout"
)

func plan(steps []int32, final *rollout.Range) rollout.Plan {
	return rollout.Plan{Steps: steps, Final: final, Hold: metav1.Duration{Duration: 1500 * time.Millisecond},
		StepTimeout: metav1.Duration{Duration: 60 * time.Second}, GateInterval: metav1.Duration{Duration: 500 * time.Millisecond},
		RollbackTo: rollout.RollbackOriginal}
}

// runner is a Runner of w's HPA for holder. Its Lease lasts 15s: no test here waits for one to
// expire, and a shorter one (3s, renewed every second with a one-second timeout) was lost on a
// loaded 2-core machine whose API server stalled renewals past it, which stopped the rollout.
func runner(w *rollouttest.Workload, holder string) *rollout.Runner {
	return &rollout.Runner{Client: w.K.Clients.Clientset, Namespace: w.NS, HPA: "web", Holder: holder,
		LeaseDuration: 15 * time.Second, RollbackTimeout: 60 * time.Second, GateTimeout: 20 * time.Second}
}

func nfsGate(w *rollouttest.Workload) rollout.Gate {
	return &rollout.ResultsGate{GateName: "nfs", Run: func(ctx context.Context) ([]preflight.Result, error) {
		return nfscheck.CheckWorkload(ctx, w.K.Clients, w.NS, "web", "/mnt/openstudio")
	}}
}

// runHolding starts r's rollout of p and returns once step 1 is ready (its hold has begun), with
// the channel the rollout's outcome arrives on. It sets r.Observer.
func runHolding(t *testing.T, ctx context.Context, r *rollout.Runner, p rollout.Plan) <-chan *rollout.Outcome {
	t.Helper()
	holding := make(chan struct{})
	var once atomic.Bool
	r.Observer = func(p rollout.Progress) {
		if p.Kind == rollout.ProgressReady && p.Step == 1 && once.CompareAndSwap(false, true) {
			close(holding)
		}
	}
	done := make(chan *rollout.Outcome, 1)
	go func() {
		out, err := r.Run(ctx, mustInspect(t, r), p, nil)
		if err != nil {
			t.Error(err)
		}
		done <- out
	}()
	select {
	case <-holding:
	case <-time.After(60 * time.Second):
		t.Fatalf("step 1 (%d replicas) never became ready", p.Steps[0])
	}
	return done
}

func mustInspect(t *testing.T, r *rollout.Runner) *rollout.Target {
	t.Helper()
	tg, err := r.Inspect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// A gate fails at step 2 (the new pod mounts the share with the attribute cache on): the rollout
// rolls back to the original range, the Deployment scales back, and the journal and the Events
// say so.
func TestGateFailsAtStep2RollsBack(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	w := rollouttest.New(t, k, rollouttest.Options{MinReadySeconds: 2})
	// Pods created from now on (the step-2 pod) show a caching mount.
	w.SetMount(t, func(string) string { return rollouttest.CachingMount }, false)
	r := runner(w, "test-a")
	var kinds []rollout.ProgressKind
	r.Observer = func(p rollout.Progress) { kinds = append(kinds, p.Kind) }
	// The library journals the gates' names and digest, no setting's value, whoever calls it
	// (the journal is readable by anyone who can read the HPA).
	p := plan([]int32{1, 2, 3}, nil)
	p.Gates = rollout.GateConfig{NFS: true, HTTP: "https://ops:s3cret-pass@127.0.0.1:1/healthz", Cmd: "check --token=s3cret-token"}
	out, err := r.Run(context.Background(), mustInspect(t, r), p, []rollout.Gate{nfsGate(w)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Phase != rollout.PhaseRolledBack {
		t.Fatalf("phase %s (%s), want rolled-back", out.Phase, out.Reason)
	}
	var ge *rollout.GateError
	if !errors.As(out.Err, &ge) || ge.Step != 2 || !strings.Contains(out.Reason, "nfs.noac") {
		t.Fatalf("want a gate error at step 2 naming nfs.noac, got %v", out.Err)
	}
	min, max, ann := w.HPA(t)
	if min != 1 || max != 1 {
		t.Fatalf("HPA range %d-%d after rollback, want 1-1", min, max)
	}
	w.WaitSettled(t, 1, 5*time.Second)
	j, err := rollout.DecodeJournal(ann[rollout.AnnotationJournal])
	if err != nil {
		t.Fatal(err)
	}
	if j.Phase != rollout.PhaseRolledBack || j.LastGood != 1 || j.Step != 2 {
		t.Fatalf("journal phase %s lastGood %d step %d", j.Phase, j.LastGood, j.Step)
	}
	for _, s := range []string{"s3cret", "127.0.0.1:1", "check "} {
		if a := ann[rollout.AnnotationJournal]; strings.Contains(a, s) {
			t.Fatalf("the journal keeps the gate setting %q: %s", s, a)
		}
	}
	if g := j.Plan.GateRecord; strings.Join(g.Names, ",") != "nfs,http,cmd" || g.Digest != p.Gates.Digest() || g.Check(p.Gates, false) != nil {
		t.Fatalf("the journal's gates %+v, want names nfs,http,cmd and the digest of the plan's gates", g)
	}
	ev := strings.Join(w.Events(t), ",")
	for _, want := range []string{"RolloutStarted", "RolloutStep", "RolloutStepPassed", "RolloutGateFailed", "RolloutRollback", "RolloutRolledBack"} {
		if !strings.Contains(ev, want) {
			t.Errorf("Events %s lack %s", ev, want)
		}
	}
	lease, err := k.Clients.Clientset.CoordinationV1().Leases(w.NS).Get(context.Background(), rollout.LeaseName("web"), metav1.GetOptions{})
	if err != nil || lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity != "" {
		t.Fatalf("the Lease should be released after the rollback: %+v %v", lease.Spec, err)
	}
}

// --rollback-to last-good keeps the last step whose gates passed.
func TestRollbackToLastGood(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	w := rollouttest.New(t, k, rollouttest.Options{})
	var step atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
		if step.Load() >= 3 {
			rw.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	r := runner(w, "test-b")
	r.Observer = func(p rollout.Progress) {
		if p.Kind == rollout.ProgressStep {
			step.Store(int32(p.Step))
		}
	}
	p := plan([]int32{1, 2, 3}, &rollout.Range{Min: 2, Max: 4})
	p.RollbackTo = rollout.RollbackLastGood
	out, err := r.Run(context.Background(), mustInspect(t, r), p, []rollout.Gate{&rollout.HTTPGate{URL: srv.URL, Latency: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Phase != rollout.PhaseRolledBack || out.Final != rollout.Pinned(2) || !strings.Contains(out.Reason, "503") {
		t.Fatalf("outcome %s to %s (%s), want rolled-back to 2 on a 503", out.Phase, out.Final, out.Reason)
	}
	if min, max, _ := w.HPA(t); min != 2 || max != 2 {
		t.Fatalf("HPA %d-%d, want 2-2", min, max)
	}
	w.WaitSettled(t, 2, 5*time.Second)
}

// Another client changing the HPA's spec mid-rollout stops it without touching the HPA again.
func TestSomeoneElseEditsHPA(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	w := rollouttest.New(t, k, rollouttest.Options{})
	r := runner(w, "test-c")
	edited := make(chan struct{})
	r.Observer = func(p rollout.Progress) {
		if p.Kind == rollout.ProgressReady && p.Step == 1 {
			go func() {
				defer close(edited)
				_, err := k.Clients.Clientset.AutoscalingV2().HorizontalPodAutoscalers(w.NS).Patch(context.Background(), "web",
					types.MergePatchType, []byte(`{"spec":{"maxReplicas":5}}`), metav1.PatchOptions{FieldManager: "kubectl-edit"})
				if err != nil {
					t.Error(err)
				}
			}()
		}
	}
	p := plan([]int32{1, 2, 3}, nil)
	p.Hold.Duration = 30 * time.Second
	p.Steps = []int32{2, 3}
	start := time.Now()
	out, err := r.Run(context.Background(), mustInspect(t, r), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-edited
	var ie *rollout.InterferenceError
	if out.Phase != rollout.PhaseStopped || !errors.As(out.Err, &ie) || !strings.Contains(ie.Error(), "kubectl-edit") {
		t.Fatalf("outcome %s: %v; want stopped naming kubectl-edit", out.Phase, out.Err)
	}
	if time.Since(start) > 25*time.Second {
		t.Errorf("the change was noticed only after the 30s hold")
	}
	min, max, ann := w.HPA(t)
	if min != 2 || max != 5 {
		t.Fatalf("HPA %d-%d: osctl fought the other client's change", min, max)
	}
	j, _ := rollout.DecodeJournal(ann[rollout.AnnotationJournal])
	if j == nil || j.Phase != rollout.PhaseStopped {
		t.Fatalf("journal %+v, want phase stopped", j)
	}
	// resume refuses; undo refuses without --force.
	if _, err := r.Resume(context.Background(), mustInspect(t, r), nil); err == nil {
		t.Fatal("resume after someone else's change should refuse")
	}
	if _, err := r.Undo(context.Background(), mustInspect(t, r)); err == nil || !strings.Contains(err.Error(), "Force is needed") {
		t.Fatalf("undo without Force should refuse: %v", err)
	}
}

// A second rollout while one runs is refused with who holds it and until when; a cancelled
// context (Ctrl-C) rolls back.
func TestConcurrentRefusedAndInterruptRollsBack(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	w := rollouttest.New(t, k, rollouttest.Options{})
	r := runner(w, "first-osctl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := plan([]int32{2, 3}, nil)
	p.Hold.Duration = time.Minute
	done := runHolding(t, ctx, r, p)
	r2 := runner(w, "second-osctl")
	_, err := r2.Run(context.Background(), mustInspect(t, r2), p, nil)
	var he *rollout.HeldError
	if !errors.As(err, &he) || he.Lease.Holder != "first-osctl" || !strings.Contains(err.Error(), "until") {
		t.Fatalf("second rollout: %v; want refused naming first-osctl and until when", err)
	}
	cancel()
	out := <-done
	if out == nil || out.Phase != rollout.PhaseRolledBack || !errors.Is(out.Err, rollout.ErrInterrupted) {
		t.Fatalf("after cancel: %+v", out)
	}
	if min, max, _ := w.HPA(t); min != 1 || max != 1 {
		t.Fatalf("HPA %d-%d, want 1-1", min, max)
	}
	w.WaitSettled(t, 1, 5*time.Second)
}
