package workload

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// The OpenStudio web entrypoint's Passenger defaults, used where a pod sets neither.
const (
	DefaultPassengerPool  = 16 // MAX_POOL: Passenger's --max-pool-size
	DefaultPassengerQueue = 50 // MAX_REQUESTS: its --max-request-queue-size
)

// PassengerDefaultsSource is the Source of settings that are the entrypoint's defaults.
const PassengerDefaultsSource = "the entrypoint defaults"

// Passenger is one pod's Passenger capacity: pool processes serving and queue slots waiting.
type Passenger struct {
	Pool, Queue int
	Source      string // where the values came from, e.g. "env MAX_REQUESTS/MAX_POOL of container web"
}

// Capacity is the requests the pod holds at once: served plus queued.
func (p Passenger) Capacity() int { return p.Pool + p.Queue }

// PassengerEnv reads MAX_POOL and MAX_REQUESTS from the first container that sets either (plain
// values; an unset, zero or unreadable one is the entrypoint's default). ok is false when no
// container sets them: the caller decides the fallback (Helm values, the defaults).
func PassengerEnv(containers []corev1.Container) (p Passenger, ok bool) {
	for _, c := range containers {
		q, okQ := Env(c, "MAX_REQUESTS")
		pl, okP := Env(c, "MAX_POOL")
		if okQ || okP {
			p.Queue, _ = strconv.Atoi(strings.TrimSpace(q))
			p.Pool, _ = strconv.Atoi(strings.TrimSpace(pl))
			return p.withDefaults("env MAX_REQUESTS/MAX_POOL of container " + c.Name), true
		}
	}
	return Passenger{}, false
}

// PassengerOf is a pod's Passenger settings: its env, else the entrypoint's defaults.
func PassengerOf(spec corev1.PodSpec) Passenger {
	if p, ok := PassengerEnv(spec.Containers); ok {
		return p
	}
	return Passenger{Pool: DefaultPassengerPool, Queue: DefaultPassengerQueue, Source: PassengerDefaultsSource}
}

func (p Passenger) withDefaults(src string) Passenger {
	p.Source = src
	if p.Queue <= 0 {
		p.Queue = DefaultPassengerQueue
	}
	if p.Pool <= 0 {
		p.Pool = DefaultPassengerPool
	}
	return p
}
