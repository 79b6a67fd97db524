package rollout_test

import (
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/rollout"
)

func TestParseSteps(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		err  string
	}{
		{"1,2,4", "[1 2 4]", ""},
		{" 1 , 3 ", "[1 3]", ""},
		{"2", "[2]", ""},
		{"", "", "empty"},
		{"1,1", "", "must increase"},
		{"2,1", "", "must increase"},
		{"0,1", "", "between 1 and"},
		{"1,x", "", `"x" is not`},
		{"1,1001", "", "between 1 and 1000"},
	} {
		got, err := rollout.ParseSteps(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSteps(%q) err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || fmt.Sprint(got) != tc.want {
			t.Errorf("ParseSteps(%q) = %v, %v", tc.in, got, err)
		}
	}
}

func FuzzParseSteps(f *testing.F) {
	for _, s := range []string{"1,2,4", "", "1,,2", "-1", "9999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		steps, err := rollout.ParseSteps(s)
		if err != nil {
			return
		}
		p := rollout.Plan{Steps: steps, RollbackTo: rollout.RollbackOriginal,
			StepTimeout: metav1.Duration{Duration: 1}, GateInterval: metav1.Duration{Duration: 1}}
		if err := p.Validate(); err != nil {
			t.Fatalf("ParseSteps(%q) = %v passes, but Validate says %v", s, steps, err)
		}
	})
}

func TestValidate(t *testing.T) {
	ok := rollout.Plan{Steps: []int32{1, 2}, RollbackTo: rollout.RollbackOriginal,
		StepTimeout: metav1.Duration{Duration: 1}, GateInterval: metav1.Duration{Duration: 1}}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := ok
	bad.Final = &rollout.Range{Min: 3, Max: 2}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "Final 3-2 is invalid") {
		t.Errorf("final 3-2: %v", err)
	}
	bad = ok
	bad.RollbackTo = "previous"
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "last-good") {
		t.Errorf("rollback-to previous: %v", err)
	}
	if got := (rollout.Plan{Steps: []int32{1, 2}, Final: &rollout.Range{Min: 2, Max: 6}}).MaxReplicas(); got != 6 {
		t.Errorf("MaxReplicas = %d, want 6", got)
	}
}

func target(min, max, replicas int32, hpaLabels, hpaAnn, depAnn map[string]string) *rollout.Target {
	return &rollout.Target{Namespace: "ns",
		HPA: &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Name: "web", Labels: hpaLabels, Annotations: hpaAnn},
			Spec: autoscalingv2.HorizontalPodAutoscalerSpec{MinReplicas: &min, MaxReplicas: max}},
		Deployment: &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Annotations: depAnn},
			Spec: appsv1.DeploymentSpec{Replicas: &replicas, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: "web", Image: "img:1"}}}}}},
	}
}

// The seed's Phase 1 raised the HPA to 2-6 before locking was validated: the first step lowers it.
func TestLayoutFirstStepLowers(t *testing.T) {
	v := rollout.Layout(target(2, 6, 3, nil, nil, nil), rollout.Plan{Steps: []int32{1, 2, 4}, Final: &rollout.Range{Min: 2, Max: 4}, RollbackTo: rollout.RollbackOriginal})
	if !v.ScalesDown || !strings.Contains(v.Steps[0].Note, "from 2-6 to 1") || !strings.Contains(v.Steps[0].Note, "from 3 to 1") {
		t.Fatalf("first step note %q scalesDown %v", v.Steps[0].Note, v.ScalesDown)
	}
	if v.Steps[1].Patch != `{"spec":{"maxReplicas":2,"minReplicas":2}}` {
		t.Errorf("step 2 patch %s", v.Steps[1].Patch)
	}
	if last := v.Steps[len(v.Steps)-1]; last.Step != 0 || last.Replicas != "2-4" {
		t.Errorf("final step %+v", last)
	}
	v = rollout.Layout(target(1, 1, 1, nil, nil, nil), rollout.Plan{Steps: []int32{1, 2}, RollbackTo: rollout.RollbackOriginal})
	if v.ScalesDown || v.Steps[0].Note != "" {
		t.Errorf("1-1 -> 1 does not lower anything: %+v", v.Steps[0])
	}
}

func TestManagers(t *testing.T) {
	helm := rollout.Managers(target(1, 1, 1, map[string]string{"app.kubernetes.io/managed-by": "Helm"},
		map[string]string{"meta.helm.sh/release-name": "osrel"}, nil).HPA, rollout.Range{Min: 2, Max: 4})
	if len(helm) != 1 || helm[0].Kind != "helm" || helm[0].Values["web_hpa.minReplicas"] != "2" || helm[0].Values["web_hpa.maxReplicas"] != "4" ||
		!strings.Contains(helm[0].Message, "web_hpa.maxReplicas=4, web_hpa.minReplicas=2") {
		t.Fatalf("helm: %+v", helm)
	}
	argo := rollout.Managers(target(1, 1, 1, nil, map[string]string{"argocd.argoproj.io/tracking-id": "app:autoscaling/HorizontalPodAutoscaler:ns/web"}, nil).HPA, rollout.Pinned(2))
	if len(argo) != 1 || argo[0].Kind != "argocd" || !strings.Contains(argo[0].Message, "self-heal") {
		t.Fatalf("argo: %+v", argo)
	}
	flux := rollout.Managers(target(1, 1, 1, map[string]string{"kustomize.toolkit.fluxcd.io/name": "apps"}, nil, nil).HPA, rollout.Pinned(2))
	if len(flux) != 1 || flux[0].Kind != "flux" || !strings.Contains(flux[0].Message, "suspend") {
		t.Fatalf("flux: %+v", flux)
	}
	if m := rollout.Managers(target(1, 1, 1, nil, nil, nil).HPA, rollout.Pinned(2)); len(m) != 0 {
		t.Fatalf("plain HPA: %+v", m)
	}
}

func TestSingleOwner(t *testing.T) {
	p := rollout.Plan{Steps: []int32{1, 2}}
	tg := target(1, 1, 1, nil, nil, map[string]string{rollout.AnnotationSingleOwner: "true"})
	if r := rollout.CheckSingleOwner(tg, p); r.Status != "fail" || !strings.Contains(r.Message, "never scaled above one") {
		t.Fatalf("single-owner above one: %+v", r)
	}
	if r := rollout.CheckSingleOwner(tg, rollout.Plan{Steps: []int32{1}}); r.Status != "pass" {
		t.Fatalf("single-owner staying at one: %+v", r)
	}
	if r := rollout.CheckSingleOwner(target(1, 1, 1, nil, nil, nil), p); r.Status != "pass" {
		t.Fatalf("unmarked: %+v", r)
	}
}
