package workers

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Spec says how the load workers run: how many, from which image, with which resources, on
// which nodes, for how long at most.
type Spec struct {
	Count int
	Image string
	// Resources are each worker's requests, and its limits too except for CPU.
	Resources    corev1.ResourceList
	NodeSelector map[string]string
	Tolerations  []corev1.Toleration
	PullSecrets  []string
	// ReadyTimeout bounds the wait for every pod to be ready.
	ReadyTimeout time.Duration
	// Deadline is the Job's activeDeadlineSeconds: the pods end by then even if the coordinator
	// died. TTL is its ttlSecondsAfterFinished: the Job is deleted that long after it ended.
	Deadline time.Duration
	TTL      time.Duration
}

// Defaults.
const (
	DefaultReadyTimeout = 2 * time.Minute
	DefaultTTL          = 10 * time.Minute
	// ImageRepository is where osctl's release images are published (tagged with the version).
	ImageRepository = "ghcr.io/osctl/osctl"
)

// DefaultImage is the image of an osctl release: the repository tagged with its version, or ""
// for a build that is not a release (pass --worker-image).
func DefaultImage(version string) string {
	if !regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`).MatchString(version) {
		return ""
	}
	return ImageRepository + ":" + version
}

// ParseResources parses "cpu=1,memory=512Mi" (cpu, memory, ephemeral-storage).
func ParseResources(s string) (corev1.ResourceList, error) {
	out := corev1.ResourceList{}
	for _, kv := range splitList(s) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("--worker-resources %q: each item is NAME=QUANTITY, e.g. cpu=1,memory=512Mi", kv)
		}
		switch k {
		case "cpu", "memory", "ephemeral-storage":
		default:
			return nil, fmt.Errorf("--worker-resources: unknown resource %q: use cpu, memory or ephemeral-storage", k)
		}
		q, err := resource.ParseQuantity(v)
		if err != nil || q.Sign() <= 0 {
			return nil, fmt.Errorf("--worker-resources %s=%q: not a positive quantity such as 500m, 2 or 512Mi", k, v)
		}
		out[corev1.ResourceName(k)] = q
	}
	return out, nil
}

// ParseNodeSelector parses "KEY=VALUE,KEY=VALUE".
func ParseNodeSelector(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range splitList(s) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--worker-node-selector %q: each item is LABEL=VALUE, e.g. kubernetes.io/arch=amd64", kv)
		}
		out[k] = v
	}
	return out, nil
}

// ParseToleration parses KEY[=VALUE][:EFFECT] as kubectl taint names a taint: "dedicated=load:NoSchedule"
// tolerates that taint, "dedicated:NoSchedule" any value of it, "dedicated" every effect.
func ParseToleration(s string) (corev1.Toleration, error) {
	t := corev1.Toleration{Operator: corev1.TolerationOpExists}
	kv, eff, hasEff := strings.Cut(s, ":")
	if hasEff {
		switch e := corev1.TaintEffect(eff); e {
		case corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute:
			t.Effect = e
		default:
			return t, fmt.Errorf("--worker-toleration %q: the effect is NoSchedule, PreferNoSchedule or NoExecute", s)
		}
	}
	k, v, hasV := strings.Cut(kv, "=")
	if k == "" {
		return t, fmt.Errorf("--worker-toleration %q: use KEY[=VALUE][:EFFECT], e.g. dedicated=load:NoSchedule", s)
	}
	t.Key = k
	if hasV {
		t.Operator, t.Value = corev1.TolerationOpEqual, v
	}
	return t, nil
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// deadlineFor is a Job deadline for a run that may take est: twice that, at least an hour.
func deadlineFor(est time.Duration) time.Duration {
	return max(2*est, time.Hour)
}

// Flags are the in-cluster mode's settings as osctl stress's flags give them.
type Flags struct {
	Count                          int
	Image, Resources, NodeSelector string
	Tolerations, PullSecrets       []string
	ReadyTimeout, Deadline         time.Duration
}

// Spec checks the flags and makes the Spec, naming the flag that is wrong. version is this
// osctl's (the default image is its release's); concurrency is the run's: every worker needs at
// least one request in flight. Count 0 is a run from this process: no other worker flag then.
func (f Flags) Spec(version string, concurrency int) (Spec, error) {
	if f.Count == 0 {
		if f.Image != "" || f.Resources != "" || f.NodeSelector != "" || len(f.Tolerations) > 0 || len(f.PullSecrets) > 0 || f.Deadline != 0 {
			return Spec{}, fmt.Errorf("the --worker-* flags set up the load workers: pass --workers K with them")
		}
		return Spec{}, nil
	}
	s := Spec{Count: f.Count, Image: f.Image, PullSecrets: f.PullSecrets, ReadyTimeout: f.ReadyTimeout, Deadline: f.Deadline}
	var err error
	switch {
	case f.Count < 0 || f.Count > 1000:
		return s, fmt.Errorf("--workers %d: use 1 to 1000 load workers", f.Count)
	case f.Count > concurrency:
		return s, fmt.Errorf("--workers %d is more than --concurrency %d: each worker needs at least one request in flight", f.Count, concurrency)
	case f.ReadyTimeout <= 0 || f.Deadline < 0:
		return s, fmt.Errorf("--worker-ready-timeout must be above 0 and --worker-deadline 0 (automatic) or more")
	case f.Deadline > 0 && f.Deadline < time.Minute:
		return s, fmt.Errorf("--worker-deadline %s: give the pods at least 1m (the Job ends them then, load or not)", f.Deadline)
	}
	if s.Image == "" {
		if s.Image = DefaultImage(version); s.Image == "" {
			return s, fmt.Errorf("--workers needs --worker-image: this osctl (%s) is not a release, so it has no published image; build one with make image (docs/stress-workers.md)", version)
		}
	}
	if s.Resources, err = ParseResources(f.Resources); err != nil {
		return s, err
	}
	if s.NodeSelector, err = ParseNodeSelector(f.NodeSelector); err != nil {
		return s, err
	}
	for _, t := range f.Tolerations {
		tol, err := ParseToleration(t)
		if err != nil {
			return s, err
		}
		s.Tolerations = append(s.Tolerations, tol)
	}
	return s, nil
}
