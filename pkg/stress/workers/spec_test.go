package workers

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// TestFlagsSpec: each wrong --worker-* flag is named in its error; good flags make the Spec.
func TestFlagsSpec(t *testing.T) {
	ok := Flags{Count: 2, Image: "reg/osctl:v1", ReadyTimeout: time.Minute}
	for _, tc := range []struct {
		f    func(*Flags)
		conc int
		want string
	}{
		{func(f *Flags) { f.Count = 0 }, 10, "pass --workers K"},
		{func(f *Flags) { f.Count = 11 }, 10, "--workers 11 is more than --concurrency 10"},
		{func(f *Flags) { f.Image = "" }, 10, "--workers needs --worker-image"},
		{func(f *Flags) { f.Resources = "cpu" }, 10, "--worker-resources \"cpu\""},
		{func(f *Flags) { f.Resources = "gpu=1" }, 10, "unknown resource \"gpu\""},
		{func(f *Flags) { f.NodeSelector = "pool" }, 10, "--worker-node-selector \"pool\""},
		{func(f *Flags) { f.Tolerations = []string{"k:Sometimes"} }, 10, "--worker-toleration \"k:Sometimes\""},
		{func(f *Flags) { f.Deadline = time.Second }, 10, "--worker-deadline 1s"},
	} {
		f := ok
		tc.f(&f)
		if _, err := f.Spec("dev", tc.conc); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", f, err, tc.want)
		}
	}
	f := ok
	f.Resources, f.NodeSelector, f.Tolerations = "cpu=500m,memory=256Mi", "pool=load", []string{"dedicated=load:NoSchedule", "spot"}
	s, err := f.Spec("dev", 10)
	if err != nil {
		t.Fatal(err)
	}
	if s.NodeSelector["pool"] != "load" || len(s.Tolerations) != 2 || s.Tolerations[0].Value != "load" || s.Tolerations[1].Operator != corev1.TolerationOpExists {
		t.Fatalf("%+v", s)
	}
	if r := s.resources(); r.Limits.Cpu().Sign() != 0 || r.Limits.Memory().String() != "256Mi" || r.Requests.Cpu().String() != "500m" {
		t.Fatalf("resources %+v: want requests as given, limits without cpu", r)
	}
	if DefaultImage("v1.4.0") != ImageRepository+":v1.4.0" || DefaultImage("dev") != "" {
		t.Fatal("DefaultImage")
	}
}
