package k8s

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// UnschedulableGrace is how long a pod may stay unschedulable before WaitIndexedPods gives up on
// it: the scheduler's verdict can change as nodes join or are untainted, so one report is not
// enough, but a pod the scheduler has refused for this long is reported rather than waited on.
const UnschedulableGrace = 20 * time.Second

// PodFailedError says a pod will not become ready without someone's help: its image cannot be
// pulled, its container keeps crashing or ended with an error, it failed, or the scheduler keeps
// refusing it. WaitIndexedPods returns it as soon as it sees one such pod.
type PodFailedError struct {
	Pod     string
	Reason  string // ImagePullBackOff, ErrImagePull, CrashLoopBackOff, Error, Failed, Unschedulable, ...
	Message string // what the kubelet or the scheduler said, on one line
}

func (e *PodFailedError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("pod %s: %s", e.Pod, e.Reason)
	}
	return fmt.Sprintf("pod %s: %s: %s", e.Pod, e.Reason, e.Message)
}

// fatalWaiting are the container waiting reasons a kubelet gives that no amount of waiting cures.
var fatalWaiting = map[string]bool{
	"ImagePullBackOff": true, "ErrImagePull": true, "InvalidImageName": true, "ErrImageNeverPull": true,
	"CrashLoopBackOff": true, "CreateContainerConfigError": true, "CreateContainerError": true, "RunContainerError": true,
}

// FatalWaiting says whether a container waiting for reason will not start by itself (its image
// cannot be pulled, it keeps crashing, the kubelet cannot create it).
func FatalWaiting(reason string) bool { return fatalWaiting[reason] }

// ImageReason says whether reason is one of the image's (it cannot be pulled or named).
func ImageReason(reason string) bool {
	switch reason {
	case "ImagePullBackOff", "ErrImagePull", "InvalidImageName", "ErrImageNeverPull":
		return true
	}
	return false
}

// PodFailure says why a pod will not become ready by itself, or nil while it may still. A pod
// unschedulable is a failure once unschedulableSince (when it was first seen so) is
// UnschedulableGrace before now. A container that exited non-zero is final: it is for pods that
// restart never, as osctl's Jobs' do (a restarting one shows CrashLoopBackOff first).
func PodFailure(p *corev1.Pod, unschedulableSince, now time.Time) *PodFailedError {
	if p.DeletionTimestamp != nil {
		return nil
	}
	fail := func(reason string, msg ...string) *PodFailedError {
		parts := slices.DeleteFunc(msg, func(m string) bool { return strings.TrimSpace(m) == "" })
		return &PodFailedError{Pod: p.Name, Reason: reason, Message: oneLine(strings.Join(parts, ": "))}
	}
	for _, cs := range append(append([]corev1.ContainerStatus{}, p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
		if w := cs.State.Waiting; w != nil && fatalWaiting[w.Reason] {
			return fail(w.Reason, w.Message)
		}
		if t := cs.State.Terminated; t != nil && t.ExitCode != 0 {
			return fail(firstOf(t.Reason, "Error"), fmt.Sprintf("container %s exited %d", cs.Name, t.ExitCode), t.Message)
		}
	}
	switch p.Status.Phase {
	case corev1.PodFailed:
		return fail(firstOf(p.Status.Reason, "Failed"), "the pod failed", p.Status.Message)
	case corev1.PodSucceeded:
		return fail("Completed", "the pod ended before it was used (its command exited 0)")
	}
	if c := scheduled(p); c != nil && c.Status == corev1.ConditionFalse && c.Reason == corev1.PodReasonUnschedulable &&
		!unschedulableSince.IsZero() && now.Sub(unschedulableSince) >= UnschedulableGrace {
		return fail(c.Reason, fmt.Sprintf("for %s", now.Sub(unschedulableSince).Round(time.Second)), c.Message)
	}
	return nil
}

func scheduled(p *corev1.Pod) *corev1.PodCondition {
	for i, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 400 {
		cut := 400
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// failureWatch remembers since when each pod has been unschedulable, across WaitIndexedPods'
// lists.
type failureWatch struct {
	since map[types.UID]time.Time
}

// check returns the first failure among pods (by name), and updates when each was first seen
// unschedulable.
func (fw *failureWatch) check(pods []corev1.Pod, now time.Time) *PodFailedError {
	if fw.since == nil {
		fw.since = map[types.UID]time.Time{}
	}
	var first *PodFailedError
	for i := range pods {
		p := &pods[i]
		if c := scheduled(p); c != nil && c.Status == corev1.ConditionFalse && c.Reason == corev1.PodReasonUnschedulable {
			if _, ok := fw.since[p.UID]; !ok {
				fw.since[p.UID] = now
			}
		} else {
			delete(fw.since, p.UID)
		}
		if e := PodFailure(p, fw.since[p.UID], now); e != nil && (first == nil || e.Pod < first.Pod) {
			first = e
		}
	}
	return first
}

// due is when the first pod now unschedulable will have been so for UnschedulableGrace (zero
// when none is), so that the wait for the pods' next change ends then: the scheduler may send
// nothing more.
func (fw *failureWatch) due() time.Time {
	var first time.Time
	for _, since := range fw.since {
		if t := since.Add(UnschedulableGrace); first.IsZero() || t.Before(first) {
			first = t
		}
	}
	return first
}
