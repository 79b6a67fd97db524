// Package workload holds the facts about a Deployment that the preflight rules share: how many
// pods it can run at once (replicas, HPA, rollout surge) and which volume holds a path.
package workload

import (
	"fmt"
	"path"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Replicas returns spec.replicas, 1 when unset (the API default).
func Replicas(d *appsv1.Deployment) int {
	if d.Spec.Replicas == nil {
		return 1
	}
	return int(*d.Spec.Replicas)
}

// Surge returns how many extra pods a rollout of d may start for replicas pods: 0 for
// Recreate, maxSurge (25% rounded up by default) for RollingUpdate.
func Surge(d *appsv1.Deployment, replicas int) int {
	if d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
		return 0
	}
	return rollingUpdate(d, replicas, true, func(ru *appsv1.RollingUpdateDeployment) *intstr.IntOrString { return ru.MaxSurge })
}

// Unavailable returns maxUnavailable for replicas pods (25% rounded down by default).
func Unavailable(d *appsv1.Deployment, replicas int) int {
	if d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
		return replicas
	}
	return rollingUpdate(d, replicas, false, func(ru *appsv1.RollingUpdateDeployment) *intstr.IntOrString { return ru.MaxUnavailable })
}

// rollingUpdate scales the RollingUpdate field that field picks (25% when unset) to replicas
// pods, rounding up or down; 0 when it is invalid.
func rollingUpdate(d *appsv1.Deployment, replicas int, roundUp bool, field func(*appsv1.RollingUpdateDeployment) *intstr.IntOrString) int {
	def := intstr.FromString("25%")
	v := &def
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil && field(ru) != nil {
		v = field(ru)
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(v, replicas, roundUp)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// Concurrency says how many pods of a workload can run at once, and why.
type Concurrency struct {
	Replicas int // spec.replicas, or HPA max when an HPA manages the workload
	HPAMax   int // 0 without an HPA
	Surge    int // extra pods during a rollout
	Max      int // the most pods at once
	Why      string
}

// PodsAtOnce computes the concurrency of d with an optional HPA maximum (0 for none).
func PodsAtOnce(d *appsv1.Deployment, hpaMax int) Concurrency {
	c := Concurrency{Replicas: Replicas(d), HPAMax: hpaMax}
	base := c.Replicas
	if hpaMax > 0 {
		base = hpaMax
	}
	c.Surge = Surge(d, base)
	c.Max = base + c.Surge
	switch {
	case hpaMax > 1:
		c.Why = fmt.Sprintf("up to %d pods can run at once (HPA maxReplicas %d)", c.Max, hpaMax)
	case base > 1:
		c.Why = fmt.Sprintf("%d replicas run at once", base)
	case c.Surge > 0:
		c.Why = fmt.Sprintf("%d pods run at once during every rollout (maxSurge %d)", c.Max, c.Surge)
	default:
		c.Why = "one pod at a time"
	}
	return c
}

// MountAt is the container mount that holds a path and the volume behind it.
type MountAt struct {
	Container string
	Mount     corev1.VolumeMount
	Volume    corev1.Volume
}

// FindVolume returns the container volume mount with the longest mountPath holding p (the
// first such container wins), and its volume. ok is false when no container mounts p.
func FindVolume(spec *corev1.PodSpec, p string) (MountAt, bool) {
	p = path.Clean("/" + p)
	var best MountAt
	bestLen := -1
	for _, c := range spec.Containers {
		for _, vm := range c.VolumeMounts {
			mp := path.Clean("/" + vm.MountPath)
			if mp != "/" && p != mp && !strings.HasPrefix(p, mp+"/") {
				continue
			}
			if len(mp) > bestLen {
				best, bestLen = MountAt{Container: c.Name, Mount: vm}, len(mp)
			}
		}
	}
	if bestLen < 0 {
		return MountAt{}, false
	}
	for _, v := range spec.Volumes {
		if v.Name == best.Mount.Name {
			best.Volume = v
			return best, true
		}
	}
	best.Volume = corev1.Volume{Name: best.Mount.Name}
	return best, true
}

// SharedVolume reports whether v can be shared between pods on different nodes (a PVC, NFS,
// or CSI volume), as opposed to emptyDir, configMap and the like.
func SharedVolume(v corev1.Volume) bool {
	return v.PersistentVolumeClaim != nil || v.NFS != nil || v.CSI != nil
}

// Env returns the value of env var name in container c (plain values only).
func Env(c corev1.Container, name string) (string, bool) {
	for _, e := range c.Env {
		if e.Name == name && e.ValueFrom == nil {
			return e.Value, true
		}
	}
	return "", false
}
