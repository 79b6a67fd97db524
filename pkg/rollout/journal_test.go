package rollout_test

import (
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/rollout"
)

func TestJournalRoundTrip(t *testing.T) {
	j := &rollout.Journal{Version: rollout.JournalVersion, ID: "abc", Phase: rollout.PhaseRunning, Deployment: "web",
		Original: rollout.Original{Range: rollout.Range{Min: 2, Max: 6}, SpecDigest: "d"}, Expected: rollout.Pinned(2),
		Plan: rollout.Plan{Steps: []int32{1, 2, 4}, Hold: metav1.Duration{Duration: time.Minute}}, Step: 2, LastGood: 1,
		StartedAt: time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)}
	s, err := j.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := rollout.DecodeJournal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got.Step != 2 || got.Original.Max != 6 || got.Plan.Hold.Duration != time.Minute || got.Expected != rollout.Pinned(2) {
		t.Fatalf("round trip: %+v", got)
	}
	for in, want := range map[string]string{
		`{"version":99,"id":"x","phase":"running"}`: "newer osctl",
		`{"version":1}`: "incomplete",
		`not json`:      "not a rollout journal",
	} {
		if _, err := rollout.DecodeJournal(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("DecodeJournal(%s): %v, want %q", in, err, want)
		}
	}
}

func FuzzDecodeJournal(f *testing.F) {
	f.Add(`{"version":1,"id":"a","phase":"running","plan":{"steps":[1,2]}}`)
	f.Add(`{}`)
	f.Fuzz(func(t *testing.T, s string) {
		j, err := rollout.DecodeJournal(s)
		if err != nil {
			return
		}
		if _, err := j.Encode(); err != nil {
			t.Fatalf("decoded journal does not encode: %v", err)
		}
	})
}

func hpa(min, max int32) *autoscalingv2.HorizontalPodAutoscaler {
	return &autoscalingv2.HorizontalPodAutoscaler{Spec: autoscalingv2.HorizontalPodAutoscalerSpec{MinReplicas: &min, MaxReplicas: max,
		ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{Kind: "Deployment", Name: "web"}}}
}

func TestSpecChange(t *testing.T) {
	h := hpa(2, 2)
	d := rollout.SpecDigest(h)
	if ch := rollout.SpecChange(h, rollout.Pinned(2), d); ch != "" {
		t.Fatalf("unchanged spec: %q", ch)
	}
	if ch := rollout.SpecChange(hpa(2, 5), rollout.Pinned(2), d); !strings.Contains(ch, "2-5") {
		t.Fatalf("max changed: %q", ch)
	}
	h2 := hpa(2, 2)
	h2.Status.CurrentReplicas = 7 // the controller rewrites status: never a change
	if ch := rollout.SpecChange(h2, rollout.Pinned(2), d); ch != "" {
		t.Fatalf("status only: %q", ch)
	}
	h3 := hpa(2, 2)
	h3.Spec.ScaleTargetRef.Name = "other"
	if ch := rollout.SpecChange(h3, rollout.Pinned(2), d); !strings.Contains(ch, "scale target") {
		t.Fatalf("target changed: %q", ch)
	}
}

func TestDeploymentSettled(t *testing.T) {
	s := rollout.DeploymentState{Replicas: 2, Current: 2, Updated: 2, Ready: 2, Available: 2, Observed: true}
	if !s.Settled(rollout.Pinned(2)) || !s.Settled(rollout.Range{Min: 1, Max: 4}) || s.Settled(rollout.Pinned(3)) {
		t.Fatal("settled in range")
	}
	for _, bad := range []rollout.DeploymentState{
		{Replicas: 2, Current: 3, Updated: 2, Ready: 2, Available: 2, Observed: true}, // an old pod still there
		{Replicas: 2, Current: 2, Updated: 1, Ready: 2, Available: 2, Observed: true},
		{Replicas: 2, Current: 2, Updated: 2, Ready: 2, Available: 1, Observed: true},
		{Replicas: 2, Current: 2, Updated: 2, Ready: 2, Available: 2, Observed: false},
	} {
		if bad.Settled(rollout.Pinned(2)) {
			t.Errorf("%+v is not settled", bad)
		}
	}
}
