package rollout

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
)

// PhaseDryRun is the outcome of a server-side dry run.
const PhaseDryRun Phase = "dry-run"

// commit writes the journal and sets the HPA's range to j.Expected in one merge patch, guarded
// by the HPA's resourceVersion; a conflict is retried on a fresh read. Before each try it checks
// that the spec is still prev (what the rollout set last): anything else is someone else's
// change, returned as an *InterferenceError and never overwritten.
func (r *Runner) commit(ctx context.Context, j *Journal, prev Range) error {
	return r.patch(ctx, j, &prev)
}

// commitJournal writes only the journal, leaving the spec alone.
func (r *Runner) commitJournal(ctx context.Context, j *Journal) error {
	return r.patch(ctx, j, nil)
}

func (r *Runner) patch(ctx context.Context, j *Journal, prev *Range) error {
	j.UpdatedAt = r.now().UTC()
	// A journal of an older osctl is rewritten in today's shape (its stored gates dropped), and
	// marked so that an older osctl, which would find no gates in it, refuses it.
	j.Version = JournalVersion
	val, err := j.Encode()
	if err != nil {
		return err
	}
	hpas := r.Client.AutoscalingV2().HorizontalPodAutoscalers(r.Namespace)
	err = retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		h, err := hpas.Get(ctx, r.HPA, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("reading HPA %s/%s: %w", r.Namespace, r.HPA, err)
		}
		r.uid = h.UID
		// Another osctl that took the rollout over (resume --force) owns the journal now: never
		// write over it, even in the moment before our Lease renewal notices.
		if cur, _ := JournalOf(h); cur != nil && cur.ID == j.ID && cur.Holder != j.Holder && cur.Holder != r.prevHolder {
			return fmt.Errorf("%w (the journal is now held by %s)", ErrLeaseLost, cur.Holder)
		}
		body := map[string]any{"metadata": map[string]any{
			"resourceVersion": h.ResourceVersion,
			"annotations":     map[string]string{AnnotationJournal: val},
		}}
		if prev != nil {
			if ch := SpecChange(h, *prev, j.Original.SpecDigest); ch != "" {
				return &InterferenceError{Namespace: r.Namespace, HPA: r.HPA, Change: ch, By: lastSpecWriter(h)}
			}
			body["spec"] = map[string]int32{"minReplicas": j.Expected.Min, "maxReplicas": j.Expected.Max}
		}
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		opts := metav1.PatchOptions{FieldManager: FieldManager}
		if r.DryRun {
			opts.DryRun = []string{metav1.DryRunAll}
		}
		_, err = hpas.Patch(ctx, r.HPA, types.MergePatchType, b, opts)
		return err
	})
	if err == nil && !r.DryRun {
		r.prevHolder = ""
	}
	return err
}

// dryRun sends every step's patch, and the final range's, as a server-side dry run: admission,
// validation and RBAC answer, nothing is stored, nothing waits.
func (r *Runner) dryRun(ctx context.Context, j *Journal) (*Outcome, error) {
	ranges := make([]Range, 0, len(j.Plan.Steps)+1)
	for _, k := range j.Plan.Steps {
		ranges = append(ranges, Pinned(k))
	}
	ranges = append(ranges, j.Plan.FinalRange())
	for i, rg := range ranges {
		j.Expected, j.Step = rg, i+1
		if err := r.commit(ctx, j, j.Original.Range); err != nil {
			return nil, fmt.Errorf("server-side dry run of the patch to %s: %w", rg, err)
		}
		r.observe(Progress{Kind: ProgressInfo, Step: i + 1, Steps: len(j.Plan.Steps), Range: rg,
			Message: fmt.Sprintf("server accepted (dry run): %s", SpecPatch(rg))})
	}
	return &Outcome{Phase: PhaseDryRun, Final: j.Plan.FinalRange(), Journal: j, Reason: "dry run: nothing changed"}, nil
}

// event records a Kubernetes Event on the HPA. Failing to record one is reported once as a
// warning and does not stop the rollout.
func (r *Runner) event(ctx context.Context, typ, reason, msg string) {
	if r.DryRun {
		return
	}
	ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	now := metav1.NewTime(r.now())
	if len(msg) > 1000 {
		msg = msg[:1000] + "..."
	}
	ev := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{GenerateName: r.HPA + ".osctl-", Namespace: r.Namespace},
		InvolvedObject: corev1.ObjectReference{Kind: "HorizontalPodAutoscaler", APIVersion: "autoscaling/v2",
			Name: r.HPA, Namespace: r.Namespace, UID: r.uid},
		Reason: reason, Message: msg, Type: typ, Source: corev1.EventSource{Component: EventSource},
		FirstTimestamp: now, LastTimestamp: now, Count: 1,
	}
	if _, err := r.Client.CoreV1().Events(r.Namespace).Create(ectx, ev, metav1.CreateOptions{}); err != nil && !r.eventWarned {
		r.eventWarned = true
		r.observe(Progress{Kind: ProgressWarning, Message: "could not record a Kubernetes Event on the HPA: " + err.Error()})
	}
}
