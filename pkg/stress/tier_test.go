package stress

import (
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/setting"
)

func tierPod(name string, ready, deleting bool, env ...corev1.EnvVar) corev1.Pod {
	st := corev1.ConditionFalse
	if ready {
		st = corev1.ConditionTrue
	}
	p := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "sidecar"}, {Name: "web", Env: env}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: st}}}}
	if deleting {
		now := metav1.Now()
		p.DeletionTimestamp = &now
	}
	return p
}

// TestTierOfPods: only ready pods that are not being deleted count, each with its own MAX_POOL
// and MAX_REQUESTS (the entrypoint's 16 and 50 where it sets neither).
func TestTierOfPods(t *testing.T) {
	env := []corev1.EnvVar{{Name: "MAX_POOL", Value: "4"}, {Name: "MAX_REQUESTS", Value: " 28 "}}
	tr := TierOfPods("Deployment ns/web", []corev1.Pod{
		tierPod("web-b", true, false, env...), tierPod("web-a", true, false, env...),
		tierPod("web-c", false, false, env...), tierPod("web-d", true, true, env...),
	})
	if tr.Capacity != 64 || len(tr.Pods) != 2 || tr.Pods[0].Name != "web-a" || tr.Pods[0].Passenger.Source != "env MAX_REQUESTS/MAX_POOL of container web" {
		t.Fatalf("tier %+v, want web-a and web-b at 4+28 each = 64", tr)
	}
	if s := tr.Sizing(); s != "2 ready pods x (MAX_POOL 4 + MAX_REQUESTS 28) = 64" {
		t.Errorf("sizing %q", s)
	}
	mixed := TierOfPods("Deployment ns/web", []corev1.Pod{tierPod("web-a", true, false, env...), tierPod("web-b", true, false)})
	if mixed.Capacity != 32+66 || mixed.Sizing() != "2 ready pods with their own MAX_POOL + MAX_REQUESTS = 98" {
		t.Errorf("mixed tier %d %q, want 98 (4+28 and the defaults 16+50)", mixed.Capacity, mixed.Sizing())
	}
}

// TestSizeToTier: auto takes the capacity; a number beyond it is kept with one line naming both;
// auto on a tier with no ready pod is an error naming the setting.
func TestSizeToTier(t *testing.T) {
	env := []corev1.EnvVar{{Name: "MAX_POOL", Value: "2"}, {Name: "MAX_REQUESTS", Value: "3"}}
	tr := TierOfPods("Deployment ns/web", []corev1.Pod{tierPod("web-a", true, false, env...), tierPod("web-b", true, false, env...)})

	c := Config{Profile: ProfileHTTP, Concurrency: 1000}
	note, err := SizeToTier(&c, tr)
	if err != nil || c.Concurrency != 1000 || strings.Contains(note, "\n") ||
		!strings.HasPrefix(note, "{Concurrency} 1000 is beyond the capacity of Deployment ns/web, 10 concurrent requests (2 ready pods x (MAX_POOL 2 + MAX_REQUESTS 3) = 10)") {
		t.Fatalf("beyond: %d %q %v", c.Concurrency, note, err)
	}
	c = Config{Profile: ProfileOpenStudio, Concurrency: 10}
	if note, err := SizeToTier(&c, tr); note != "" || err != nil {
		t.Errorf("at the capacity: %q %v, want nothing said", note, err)
	}
	c = Config{Profile: ProfileOpenStudio, ConcurrencyAuto: true}
	note, err = SizeToTier(&c, tr)
	if err != nil || c.Concurrency != 10 || note != "{Concurrency} auto: 10, the capacity of Deployment ns/web (2 ready pods x (MAX_POOL 2 + MAX_REQUESTS 3) = 10)" {
		t.Fatalf("auto: %d %q %v", c.Concurrency, note, err)
	}
	c = Config{Profile: ProfileOpenStudio, ConcurrencyAuto: true}
	_, err = SizeToTier(&c, TierOfPods("Deployment ns/web", []corev1.Pod{tierPod("web-a", false, false)}))
	var se *setting.Error
	if !errors.As(err, &se) || se.Name != "Concurrency" || !strings.Contains(err.Error(), "no ready pod") {
		t.Fatalf("auto with no ready pod: %v", err)
	}
	// Pods that set neither variable: OpenStudio's entrypoint defaults apply to the openstudio
	// profile only; for another profile the capacity is not known.
	plain := TierOfPods("Deployment ns/api", []corev1.Pod{tierPod("api-a", true, false)})
	c = Config{Profile: ProfileOpenStudio, Concurrency: 1000}
	if note, _ := SizeToTier(&c, plain); !strings.Contains(note, "66 concurrent requests (1 ready pod x (MAX_POOL 16 + MAX_REQUESTS 50) = 66)") {
		t.Errorf("openstudio on the defaults: %q", note)
	}
	c = Config{Profile: ProfileJobs, Concurrency: 1000}
	if note, err := SizeToTier(&c, plain); note != "" || err != nil {
		t.Errorf("jobs on pods without Passenger settings: %q %v, want nothing said", note, err)
	}
	c = Config{Profile: ProfileJobs, ConcurrencyAuto: true}
	if _, err := SizeToTier(&c, plain); !errors.As(err, &se) || !strings.Contains(err.Error(), "set no MAX_POOL or MAX_REQUESTS") {
		t.Errorf("auto for jobs on pods without Passenger settings: %v", err)
	}
}
