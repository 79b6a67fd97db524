package rollout

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/setting"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Defaults of a Runner.
const (
	DefaultRollbackTimeout = 5 * time.Minute
	DefaultGateTimeout     = 2 * time.Minute
)

// Runner runs, resumes and undoes rollouts of one HPA.
type Runner struct {
	Client    k8s.Interface
	Namespace string
	HPA       string
	// Holder identifies this process in the Lease and the journal (see NewHolder).
	Holder string
	// LeaseDuration is how long the Lease outlives its last renewal. The default is 30s.
	LeaseDuration time.Duration
	// Force takes over a live Lease of another holder (resume, undo).
	Force bool
	// DryRun sends every change as a server-side dry run and waits for nothing.
	DryRun bool
	// RollbackTimeout bounds a rollback, which runs on a context of its own. The default is 5m.
	RollbackTimeout time.Duration
	// GateTimeout bounds one run of one gate. The default is 2m.
	GateTimeout time.Duration
	// Observer receives progress; it is called from the runner's goroutine only.
	Observer func(Progress)
	// Now is the clock (a seam for tests). The default is time.Now.
	Now func() time.Time

	uid         types.UID // the HPA's, for Events
	eventWarned bool
	prevHolder  string // the holder a resume or undo takes the journal over from, until its first write
}

// ProgressKind says what a Progress reports.
type ProgressKind string

// The kinds of progress.
const (
	ProgressInfo       ProgressKind = "info"
	ProgressWarning    ProgressKind = "warning"
	ProgressStep       ProgressKind = "step"     // a step pinned the HPA
	ProgressWaiting    ProgressKind = "waiting"  // the Deployment changed while waiting
	ProgressReady      ProgressKind = "ready"    // the step's replicas are ready; the hold starts
	ProgressGates      ProgressKind = "gates"    // one round of gates
	ProgressPassed     ProgressKind = "passed"   // a step held with its gates passing
	ProgressFinal      ProgressKind = "final"    // the final range is set
	ProgressRollback   ProgressKind = "rollback" // a rollback started
	ProgressRolledBack ProgressKind = "rolled-back"
	ProgressDone       ProgressKind = "done"
)

// Progress is one report from a running rollout.
type Progress struct {
	Time     time.Time        `json:"time"`
	Kind     ProgressKind     `json:"kind"`
	Step     int              `json:"step,omitempty"` // 1-based
	Steps    int              `json:"steps,omitempty"`
	Range    Range            `json:"range"`
	State    *DeploymentState `json:"state,omitempty"`
	Gates    []GateResult     `json:"gates,omitempty"`
	Message  string           `json:"message,omitempty"`
	Elapsed  time.Duration    `json:"elapsed,omitempty"`
	Deadline time.Time        `json:"deadline,omitempty"` // end of the hold or the step timeout
}

// Outcome is how a rollout (or resume, or undo) ended once it had started changing things.
type Outcome struct {
	Phase   Phase    `json:"phase"`
	Reason  string   `json:"reason,omitempty"`
	Final   Range    `json:"final"`
	Journal *Journal `json:"journal"`
	// Err is the error behind a rollback, a stop or a failed rollback (nil when completed).
	Err error `json:"-"`
}

// NewHolder returns a holder identity: who (for example the Kubernetes user), host, pid and a
// random part, so that a refusal can say who holds a rollout.
func NewHolder(who string) string {
	host, _ := os.Hostname()
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	if who == "" {
		who = "unknown"
	}
	return fmt.Sprintf("%s@%s pid %d (%s)", who, host, os.Getpid(), hex.EncodeToString(b))
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Runner) observe(p Progress) {
	if r.Observer != nil {
		p.Time = r.now()
		r.Observer(p)
	}
}

// positiveOr is d when it is positive, else def.
func positiveOr(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Inspect reads the HPA, its scale target, the journal and the Lease.
func (r *Runner) Inspect(ctx context.Context) (*Target, error) {
	h, err := r.Client.AutoscalingV2().HorizontalPodAutoscalers(r.Namespace).Get(ctx, r.HPA, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, setting.Errorf("HPA", "%s not found in namespace %s: check the HPA's name and namespace", r.HPA, r.Namespace)
	}
	if err != nil {
		return nil, fmt.Errorf("reading HPA %s/%s: %w", r.Namespace, r.HPA, err)
	}
	ref := h.Spec.ScaleTargetRef
	if ref.Kind != "Deployment" {
		return nil, fmt.Errorf("HPA %s/%s scales a %s (%s); osctl rollout steps Deployments only", r.Namespace, r.HPA, ref.Kind, ref.Name)
	}
	d, err := r.Client.AppsV1().Deployments(r.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("HPA %s/%s scales Deployment %s, which does not exist", r.Namespace, r.HPA, ref.Name)
	}
	if err != nil {
		return nil, fmt.Errorf("reading Deployment %s/%s: %w", r.Namespace, ref.Name, err)
	}
	r.uid = h.UID
	t := &Target{Namespace: r.Namespace, HPA: h, Deployment: d}
	if t.Journal, err = JournalOf(h); err != nil {
		return nil, fmt.Errorf("HPA %s/%s: %w", r.Namespace, r.HPA, err)
	}
	if t.Lease, err = readLease(ctx, r.Client, r.Namespace, r.HPA, r.now()); err != nil {
		return nil, fmt.Errorf("reading the rollout Lease: %w", err)
	}
	return t, nil
}

// ActiveError is returned when a run finds an unfinished rollout in the HPA's journal.
type ActiveError struct {
	Namespace, HPA string
	Journal        *Journal
}

func (e *ActiveError) Error() string {
	j := e.Journal
	return fmt.Sprintf("HPA %s/%s has an unfinished rollout (%s at %s, started %s by %s): osctl rollout resume continues it, osctl rollout undo restores the original range %s",
		e.Namespace, e.HPA, j.Phase, j.Position(), j.StartedAt.UTC().Format(time.RFC3339), j.Holder, j.Original.Range)
}

// Run starts a new rollout of the target along plan p with the given gates. It returns an error,
// having changed nothing, when the rollout cannot start (a live Lease, an unfinished journal, an
// HPA changed since t was read); once started it returns an Outcome.
func (r *Runner) Run(ctx context.Context, t *Target, p Plan, gates []Gate) (*Outcome, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	// A live holder is named first: its rollout is running, not merely unfinished.
	if err := r.AwaitLease(ctx, t, r.notify); err != nil {
		return nil, err
	}
	if t.Journal != nil && t.Journal.Phase.Active() {
		return nil, &ActiveError{Namespace: r.Namespace, HPA: r.HPA, Journal: t.Journal}
	}
	now := r.now().UTC()
	// The journal, readable by anyone who can read the HPA, keeps the gates' names and digest,
	// no setting's value: resume is given the gates again and checks them against the digest.
	p.GateRecord, p.Gates = p.Gates.Record(), GateConfig{}
	j := &Journal{Version: JournalVersion, ID: randomID(), Phase: PhaseRunning, Deployment: t.Deployment.Name,
		Original: OriginalOf(t.HPA), Plan: p, Holder: r.Holder, StartedAt: now}
	j.Expected = j.Original.Range
	j.add(now, 0, j.Original.Range.String(), "started", fmt.Sprintf("by %s: steps %v, final %s", r.Holder, p.Steps, p.FinalRange()))
	if r.DryRun {
		return r.dryRun(ctx, j)
	}
	k, err := r.acquire(ctx, t)
	if err != nil {
		return nil, err
	}
	if k.taken != nil {
		r.observe(tookOver(k))
	}
	if err := r.commit(ctx, j, j.Original.Range); err != nil {
		k.release(context.WithoutCancel(ctx))
		var ie *InterferenceError
		if errors.As(err, &ie) {
			return nil, fmt.Errorf("HPA %s/%s changed since it was read (%s): nothing was changed; run the command again", r.Namespace, r.HPA, ie.Change)
		}
		return nil, fmt.Errorf("writing the rollout journal to HPA %s/%s: %w", r.Namespace, r.HPA, err)
	}
	r.event(ctx, "Normal", "RolloutStarted", fmt.Sprintf("osctl rollout started by %s: steps %v, final range %s", r.Holder, p.Steps, p.FinalRange()))
	return r.execute(ctx, k, j, gates, 0), nil
}

// Resume continues the rollout recorded in the HPA's journal: it takes the Lease (expired, or live
// with Force), checks that nobody changed the HPA, and goes on from the current step (whose
// hold starts again), or finishes an interrupted rollback.
func (r *Runner) Resume(ctx context.Context, t *Target, gates []Gate) (*Outcome, error) {
	j := t.Journal
	if j == nil {
		return nil, fmt.Errorf("HPA %s/%s has no rollout journal: nothing to resume (start one with osctl rollout run)", r.Namespace, r.HPA)
	}
	switch j.Phase {
	case PhaseRunning, PhaseRollingBack:
	case PhaseRollbackFailed, PhaseStopped:
		return nil, fmt.Errorf("the rollout of HPA %s/%s is %s (%s): it cannot be resumed; osctl rollout undo restores the original range %s", r.Namespace, r.HPA, j.Phase, j.Reason, j.Original.Range)
	default:
		return nil, fmt.Errorf("the last rollout of HPA %s/%s is %s: nothing to resume", r.Namespace, r.HPA, j.Phase)
	}
	if ch := SpecChange(t.HPA, j.Expected, j.Original.SpecDigest); ch != "" {
		return nil, &InterferenceError{Namespace: r.Namespace, HPA: r.HPA, Change: ch, By: lastSpecWriter(t.HPA)}
	}
	if r.DryRun {
		return &Outcome{Phase: j.Phase, Journal: j, Final: j.Plan.FinalRange(), Reason: "dry run: nothing changed"}, nil
	}
	k, err := r.acquire(ctx, t)
	if err != nil {
		return nil, err
	}
	msg := "by " + r.Holder
	if k.taken != nil {
		msg += fmt.Sprintf(" (forced: took over the Lease of %s)", k.taken.Holder)
		r.observe(tookOver(k))
	} else if j.Holder != r.Holder {
		msg += " (after " + j.Holder + ")"
	}
	r.prevHolder, j.Holder = j.Holder, r.Holder
	j.add(r.now(), j.Step, j.Expected.String(), "resumed", msg)
	if err := r.commit(ctx, j, j.Expected); err != nil {
		k.release(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("writing the rollout journal: %w", err)
	}
	r.event(ctx, "Normal", "RolloutResumed", "osctl rollout resumed "+msg)
	if j.Phase == PhaseRollingBack {
		k.start(context.WithoutCancel(ctx))
		defer k.release(context.WithoutCancel(ctx))
		return r.rollback(ctx, k, j, j.Reason, errors.New(j.Reason)), nil
	}
	from := j.Step - 1
	if from < 0 {
		from = 0
	}
	return r.execute(ctx, k, j, gates, from), nil
}

// Undo restores the original range recorded in the journal, whatever the rollout's phase, and
// waits until the Deployment has scaled back. A spec someone else changed is overwritten only
// with Force.
func (r *Runner) Undo(ctx context.Context, t *Target) (*Outcome, error) {
	j := t.Journal
	if j == nil {
		return nil, fmt.Errorf("HPA %s/%s has no rollout journal: nothing to undo", r.Namespace, r.HPA)
	}
	if j.Phase == PhaseUndone {
		return nil, fmt.Errorf("the last rollout of HPA %s/%s was already undone (range %s)", r.Namespace, r.HPA, RangeOf(t.HPA))
	}
	if ch := SpecChange(t.HPA, j.Expected, j.Original.SpecDigest); ch != "" {
		if !r.Force {
			return nil, setting.Errorf("Force", "is needed: HPA %s/%s was changed outside the rollout (%s%s) and undo would overwrite that change; forced, it restores the original range %s anyway",
				r.Namespace, r.HPA, ch, byOf(lastSpecWriter(t.HPA)), j.Original.Range)
		}
		r.observe(Progress{Kind: ProgressWarning, Message: fmt.Sprintf("forced: overwriting a change made outside the rollout (%s)", ch)})
		j.Expected = RangeOf(t.HPA)
		j.Original.SpecDigest = SpecDigest(t.HPA)
	}
	if r.DryRun {
		return &Outcome{Phase: j.Phase, Journal: j, Final: j.Original.Range, Reason: "dry run: nothing changed"}, nil
	}
	k, err := r.acquire(ctx, t)
	if err != nil {
		return nil, err
	}
	if k.taken != nil {
		r.observe(tookOver(k))
	}
	k.start(context.WithoutCancel(ctx))
	defer k.release(context.WithoutCancel(ctx))
	r.prevHolder, j.Holder = j.Holder, r.Holder
	return r.restore(ctx, k, j, j.Original.Range, "undo", PhaseUndone), nil
}

// acquire takes the rollout's Lease (see acquireLease), from what t read of it, telling the
// Observer when it waits for another holder's Lease to stay unchanged.
func (r *Runner) acquire(ctx context.Context, t *Target) (*leaseKeeper, error) {
	return acquireLease(ctx, r.Client, r.Namespace, r.HPA, r.Holder, positiveOr(r.LeaseDuration, DefaultLeaseDuration), r.Force, r.now, t.Lease, r.notify)
}

// notify tells the Observer what the runner waits for.
func (r *Runner) notify(msg string) { r.observe(Progress{Kind: ProgressInfo, Message: msg}) }

// tookOver is the warning that Force took over another osctl's Lease without waiting.
func tookOver(k *leaseKeeper) Progress {
	return Progress{Kind: ProgressWarning, Message: fmt.Sprintf("forced: took over the Lease of %s without waiting to see it unchanged for its duration (renewed until %s by its holder's clock)", k.taken.Holder, k.taken.Expires.UTC().Format(time.RFC3339))}
}

func byOf(s string) string {
	if s == "" {
		return ""
	}
	return ", by " + s
}

func randomID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
