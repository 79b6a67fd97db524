package k8s

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// JobIndexLabel is the label an Indexed Job puts on each pod: its completion index.
const JobIndexLabel = "batch.kubernetes.io/job-completion-index"

// NotReadyError says which pods of a Job did not become ready in time, and why.
type NotReadyError struct {
	Job      string
	Want     int
	Timeout  time.Duration
	Problems []string // one per pod that is not ready, or why there are too few
}

func (e *NotReadyError) Error() string {
	return fmt.Sprintf("the pods of Job %s were not ready within %s: %s", e.Job, e.Timeout, strings.Join(e.Problems, "; "))
}

// WaitIndexedPods waits until an Indexed Job's pods for indexes 0..n-1 (selector selects the
// Job's pods) are Ready, and returns them by index. When timeout passes first it returns a
// *NotReadyError that says what each pod is waiting for (scheduling, its image, its container).
// A pod that will not become ready by itself (PodFailure) ends the wait at once, with its
// *PodFailedError.
func WaitIndexedPods(ctx context.Context, cs Interface, ns, job, selector string, n int, timeout time.Duration) ([]corev1.Pod, error) {
	deadline := time.Now().Add(timeout)
	var fw failureWatch
	for {
		list, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return nil, fmt.Errorf("listing the pods of Job %s/%s: %v", ns, job, err)
		}
		byIndex := map[int]corev1.Pod{}
		var problems []string
		for _, p := range list.Items {
			i, err := strconv.Atoi(p.Labels[JobIndexLabel])
			if err != nil || i < 0 || i >= n || p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded {
				if why := PodProblem(&p); why != "" && p.DeletionTimestamp == nil {
					problems = append(problems, why)
				}
				continue
			}
			if Ready(&p) {
				byIndex[i] = p
			} else if why := PodProblem(&p); why != "" {
				problems = append(problems, why)
			}
		}
		if len(byIndex) == n {
			out := make([]corev1.Pod, n)
			for i := range out {
				out[i] = byIndex[i]
			}
			return out, nil
		}
		if e := fw.check(list.Items, time.Now()); e != nil {
			return nil, e
		}
		if time.Now().After(deadline) {
			if j, err := cs.BatchV1().Jobs(ns).Get(ctx, job, metav1.GetOptions{}); err == nil {
				for _, c := range j.Status.Conditions {
					if c.Status == corev1.ConditionTrue && (c.Type == batchv1.JobFailed || c.Type == batchv1.JobFailureTarget) {
						problems = append(problems, fmt.Sprintf("the Job failed: %s %s", c.Reason, c.Message))
					}
				}
			}
			if len(list.Items) < n {
				problems = append(problems, fmt.Sprintf("only %d of %d pods exist: the Job controller could not create the others (kubectl describe job %s -n %s says why: a quota, a Pod Security admission)",
					len(list.Items), n, job, ns))
			}
			sort.Strings(problems)
			return nil, &NotReadyError{Job: ns + "/" + job, Want: n, Timeout: timeout, Problems: problems}
		}
		wait := time.Until(deadline)
		if due := fw.due(); !due.IsZero() {
			wait = min(wait, time.Until(due))
		}
		if err := waitChange(ctx, cs, ns, selector, list.ResourceVersion, wait); err != nil {
			return nil, err
		}
	}
}

// waitChange watches the pods selector selects from resourceVersion until one changes, at most
// for d (and at least a moment: a watch that cannot start is retried after 500ms).
func waitChange(ctx context.Context, cs Interface, ns, selector, rv string, d time.Duration) error {
	secs := int64(min(max(d, time.Second), 10*time.Second) / time.Second)
	w, err := cs.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{LabelSelector: selector, ResourceVersion: rv, TimeoutSeconds: &secs})
	if err != nil {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
			return nil
		}
	}
	defer w.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-w.ResultChan():
		return nil
	case <-time.After(time.Duration(secs) * time.Second):
		return nil
	}
}

// Ready reports whether a pod is running, not being deleted, and its Ready condition is true.
func Ready(p *corev1.Pod) bool {
	if p.Status.Phase != corev1.PodRunning || p.DeletionTimestamp != nil {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// PodProblem says why a pod is not ready: not scheduled (the scheduler's message), its image
// (ErrImagePull, ImagePullBackOff), its container waiting or ended, or its phase.
func PodProblem(p *corev1.Pod) string {
	name := "pod " + p.Name
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
			return fmt.Sprintf("%s is not scheduled: %s", name, firstOf(c.Message, c.Reason))
		}
	}
	for _, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w != nil && w.Reason != "" && w.Reason != "ContainerCreating" {
			return fmt.Sprintf("%s: container %s is waiting: %s %s", name, cs.Name, w.Reason, w.Message)
		}
		if t := cs.State.Terminated; t != nil {
			return fmt.Sprintf("%s: container %s ended: %s (exit %d) %s", name, cs.Name, t.Reason, t.ExitCode, t.Message)
		}
	}
	switch p.Status.Phase {
	case corev1.PodFailed, corev1.PodSucceeded:
		return fmt.Sprintf("%s has ended (%s) %s", name, p.Status.Phase, p.Status.Message)
	case corev1.PodRunning:
		return name + " is running but not ready"
	}
	return fmt.Sprintf("%s is %s", name, firstOf(string(p.Status.Phase), "Pending"))
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// DeleteJob deletes a Job and lets the garbage collector delete its pods (propagation
// Background), then waits up to wait until no pod selector selects is left. It returns how many
// pods were still there at the end (0: all gone); a Job already gone is no error.
func DeleteJob(ctx context.Context, cs Interface, ns, job, selector string, wait time.Duration) (left int, err error) {
	bg := metav1.DeletePropagationBackground
	err = cs.BatchV1().Jobs(ns).Delete(ctx, job, metav1.DeleteOptions{PropagationPolicy: &bg})
	if err != nil && !apierrors.IsNotFound(err) {
		return -1, fmt.Errorf("deleting Job %s/%s: %v", ns, job, err)
	}
	deadline := time.Now().Add(wait)
	for {
		list, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return -1, fmt.Errorf("listing the pods of Job %s/%s: %v", ns, job, err)
		}
		if len(list.Items) == 0 || time.Now().After(deadline) {
			return len(list.Items), nil
		}
		select {
		case <-ctx.Done():
			return len(list.Items), nil
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// CreateJob creates a Job.
func CreateJob(ctx context.Context, cs Interface, j *batchv1.Job) (*batchv1.Job, error) {
	out, err := cs.BatchV1().Jobs(j.Namespace).Create(ctx, j, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("creating Job %s/%s: %v", j.Namespace, j.Name, err)
	}
	return out, nil
}
