package workers

import (
	"regexp"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/osctl/osctl/pkg/setting"
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
	// Command is what each pod runs, its deadline appended: the osctl command line of a worker
	// that waits idle for an exec to give it work (the CLI's, which names its flags).
	Command []string
}

// Defaults.
const (
	DefaultReadyTimeout = 2 * time.Minute
	DefaultTTL          = 10 * time.Minute
	// ImageRepository is where osctl's release images are published (tagged with the version).
	ImageRepository = "ghcr.io/osctl/osctl"
)

// DefaultImage is the image of an osctl version: the repository tagged with it (a release's
// v1.4.0, or a commit's v0.0.0-20261206230000-5ae7ac9abcde), or "" for a build of a modified
// checkout (+dirty) or without a version, whose image must be given.
func DefaultImage(version string) string {
	if !regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`).MatchString(version) {
		return ""
	}
	return ImageRepository + ":" + version
}

// ImageTag is version as an image tag: a tag has no "+", so a modified checkout's
// v0.0.0-20261206230000-5ae7ac9abcde+dirty is tagged v0.0.0-20261206230000-5ae7ac9abcde-dirty.
func ImageTag(version string) string {
	return strings.ReplaceAll(version, "+", "-")
}

// ParseResources parses "cpu=1,memory=512Mi" (cpu, memory, ephemeral-storage).
func ParseResources(s string) (corev1.ResourceList, error) {
	out := corev1.ResourceList{}
	for _, kv := range splitList(s) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, setting.Errorf("Workers.Resources", "%q: each item is NAME=QUANTITY, e.g. cpu=1,memory=512Mi", kv)
		}
		switch k {
		case "cpu", "memory", "ephemeral-storage":
		default:
			return nil, setting.Errorf("Workers.Resources", ": unknown resource %q: use cpu, memory or ephemeral-storage", k)
		}
		q, err := resource.ParseQuantity(v)
		if err != nil || q.Sign() <= 0 {
			return nil, setting.Errorf("Workers.Resources", "%s=%q: not a positive quantity such as 500m, 2 or 512Mi", k, v)
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
			return nil, setting.Errorf("Workers.NodeSelector", "%q: each item is LABEL=VALUE, e.g. kubernetes.io/arch=amd64", kv)
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
			return t, setting.Errorf("Workers.Tolerations", "%q: the effect is NoSchedule, PreferNoSchedule or NoExecute", s)
		}
	}
	k, v, hasV := strings.Cut(kv, "=")
	if k == "" {
		return t, setting.Errorf("Workers.Tolerations", "%q: use KEY[=VALUE][:EFFECT], e.g. dedicated=load:NoSchedule", s)
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

// given names the first worker setting given besides Count, or "".
func (f Flags) given() string {
	switch {
	case f.Image != "":
		return "Workers.Image"
	case f.Resources != "":
		return "Workers.Resources"
	case f.NodeSelector != "":
		return "Workers.NodeSelector"
	case len(f.Tolerations) > 0:
		return "Workers.Tolerations"
	case len(f.PullSecrets) > 0:
		return "Workers.PullSecrets"
	case f.Deadline != 0:
		return "Workers.Deadline"
	}
	return ""
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

// Spec checks the settings and makes the Spec. A wrong setting is a *setting.Error that names it
// Workers.<field> (Workers.Count, Workers.Image, ...), or Concurrency for the run's. version is this
// osctl's (the default image is its release's); concurrency is the run's: every worker needs at
// least one request in flight. Count 0 is a run from this process: no other worker setting then.
func (f Flags) Spec(version string, concurrency int) (Spec, error) {
	if f.Count == 0 {
		if name := f.given(); name != "" {
			return Spec{}, setting.Errorf(name, "sets up the load workers: pass {Workers.Count} K with it")
		}
		return Spec{}, nil
	}
	s := Spec{Count: f.Count, Image: f.Image, PullSecrets: f.PullSecrets, ReadyTimeout: f.ReadyTimeout, Deadline: f.Deadline}
	var err error
	switch {
	case f.Count < 0 || f.Count > 1000:
		return s, setting.Errorf("Workers.Count", "%d: use 1 to 1000 load workers", f.Count)
	case f.Count > concurrency:
		return s, setting.Errorf("Workers.Count", "%d is more than {Concurrency} %d: each worker needs at least one request in flight", f.Count, concurrency)
	case f.ReadyTimeout <= 0:
		return s, setting.Errorf("Workers.ReadyTimeout", "%s: must be above 0", f.ReadyTimeout)
	case f.Deadline < 0:
		return s, setting.Errorf("Workers.Deadline", "%s: give 0 (automatic) or more", f.Deadline)
	case f.Deadline > 0 && f.Deadline < time.Minute:
		return s, setting.Errorf("Workers.Deadline", "%s: give the pods at least 1m (the Job ends them then, load or not)", f.Deadline)
	}
	if s.Image == "" {
		if s.Image = DefaultImage(version); s.Image == "" {
			return s, setting.Errorf("Workers.Image", "is needed with {Workers.Count}: this osctl (%s) is a build of a modified checkout or without a version, so it has no published image; build one with make image IMAGE=REGISTRY/osctl:%s and pass it (docs/stress-workers.md)", version, ImageTag(version))
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
