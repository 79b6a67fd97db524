package workers

import (
	"fmt"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	pstress "github.com/osctl/osctl/pkg/stress"
)

// Labels of the workers' Job and pods.
const (
	LabelName  = "app.kubernetes.io/name"
	LabelRun   = "osctl.io/stress-run"
	WorkerName = "osctl-stress-worker"
	container  = "worker"
	// nonRootID is the user and group the workers run as: distroless's nonroot.
	nonRootID = 65532
)

// JobName is the name of a run's Job.
func JobName(run string) string { return "osctl-stress-" + run }

// Selector selects a run's pods.
func Selector(run string) string { return LabelName + "=" + WorkerName + "," + LabelRun + "=" + run }

// DefaultDeadline is how long a run's pods may live when --worker-deadline is not given: twice what
// the run may take (its duration or requests over its rate, its profile's wait after the load: Config.AfterLoad), at
// least an hour. A run of N requests at full speed has no such bound: its pods get a day (the
// coordinator deletes the Job when the run ends; the deadline is only the safety net).
func DefaultDeadline(cfg pstress.Config) time.Duration {
	if cfg.Duration == 0 && cfg.Rate == 0 {
		return unboundedDeadline
	}
	est := cfg.Duration + cfg.AfterLoad() + 5*time.Minute
	if cfg.Duration == 0 && cfg.Rate > 0 {
		est += time.Duration(float64(cfg.Requests) / cfg.Rate * float64(time.Second))
	}
	return deadlineFor(est)
}

// unboundedDeadline is the pods' deadline for a run whose length is not known in advance.
const unboundedDeadline = 24 * time.Hour

// Job is the Indexed Job of a run's workers in namespace ns: Count pods that run
// s.Command, an idle osctl worker (they wait for an exec to give them work), spread over the nodes,
// meeting the "restricted" Pod Security Standard, bounded by activeDeadlineSeconds, and deleted
// TTL after they end. A failed pod is not replaced (its index fails alone).
func (s Spec) Job(ns, run string) *batchv1.Job {
	labels := map[string]string{LabelName: WorkerName, LabelRun: run, "app.kubernetes.io/managed-by": "osctl"}
	n := int32(s.Count)
	zero := int32(0)
	deadline := int64(s.Deadline / time.Second)
	ttl := int32(s.TTL / time.Second)
	mode := batchv1.IndexedCompletion
	grace := int64(5)
	no, yes := false, true
	uid := int64(nonRootID)
	var secrets []corev1.LocalObjectReference
	for _, name := range s.PullSecrets {
		secrets = append(secrets, corev1.LocalObjectReference{Name: name})
	}
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: JobName(run), Namespace: ns, Labels: labels},
		Spec: batchv1.JobSpec{
			CompletionMode: &mode, Completions: &n, Parallelism: &n,
			BackoffLimitPerIndex: &zero, MaxFailedIndexes: &n,
			ActiveDeadlineSeconds: &deadline, TTLSecondsAfterFinished: &ttl,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					RestartPolicy:                 corev1.RestartPolicyNever,
					AutomountServiceAccountToken:  &no,
					EnableServiceLinks:            &no,
					TerminationGracePeriodSeconds: &grace,
					NodeSelector:                  s.NodeSelector,
					Tolerations:                   s.Tolerations,
					ImagePullSecrets:              secrets,
					SecurityContext: &corev1.PodSecurityContext{RunAsNonRoot: &yes, RunAsUser: &uid, RunAsGroup: &uid,
						SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}},
					TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "kubernetes.io/hostname",
						WhenUnsatisfiable: corev1.ScheduleAnyway, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{LabelRun: run}}}},
					Containers: []corev1.Container{{
						Name:    container,
						Image:   s.Image,
						Command: append(append([]string(nil), s.Command...), fmt.Sprint(s.Deadline)),
						SecurityContext: &corev1.SecurityContext{AllowPrivilegeEscalation: &no, ReadOnlyRootFilesystem: &yes, RunAsNonRoot: &yes,
							Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}},
						Resources: s.resources(),
					}},
				},
			},
		},
	}
}

// resources are the requests given, and the same limits except for CPU: a CPU limit throttles
// the worker in bursts, and the latencies it measures would be its own.
func (s Spec) resources() corev1.ResourceRequirements {
	r := corev1.ResourceRequirements{Requests: s.Resources}
	for k, q := range s.Resources {
		if k != corev1.ResourceCPU {
			if r.Limits == nil {
				r.Limits = corev1.ResourceList{}
			}
			r.Limits[k] = q
		}
	}
	return r
}
