package workers

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/osctl/osctl/pkg/setting"
)

// TestFlagsSpec: each wrong worker setting is a *setting.Error that names it, as the command line
// shows it once it names the settings as its flags; good settings make the Spec.
func TestFlagsSpec(t *testing.T) {
	flags := map[string]string{"Workers.Count": "--workers", "Concurrency": "--concurrency", "Workers.Image": "--worker-image",
		"Workers.Resources": "--worker-resources", "Workers.NodeSelector": "--worker-node-selector",
		"Workers.Tolerations": "--worker-toleration", "Workers.Deadline": "--worker-deadline", "Workers.ReadyTimeout": "--worker-ready-timeout"}
	ok := Flags{Count: 2, Image: "reg/osctl:v1", ReadyTimeout: time.Minute}
	for _, tc := range []struct {
		f       func(*Flags)
		conc    int
		setting string
		want    string
	}{
		{func(f *Flags) { f.Count = 0 }, 10, "Workers.Image", "--worker-image sets up the load workers: pass --workers K with it"},
		{func(f *Flags) { f.Count, f.Image, f.Deadline = 0, "", time.Hour }, 10, "Workers.Deadline", "pass --workers K"},
		{func(f *Flags) { f.Count = 11 }, 10, "Workers.Count", "--workers 11 is more than --concurrency 10"},
		{func(f *Flags) { f.Image = "" }, 10, "Workers.Image", "--worker-image is needed with --workers"},
		{func(f *Flags) { f.Resources = "cpu" }, 10, "Workers.Resources", "--worker-resources \"cpu\""},
		{func(f *Flags) { f.Resources = "gpu=1" }, 10, "Workers.Resources", "--worker-resources: unknown resource \"gpu\""},
		{func(f *Flags) { f.NodeSelector = "pool" }, 10, "Workers.NodeSelector", "--worker-node-selector \"pool\""},
		{func(f *Flags) { f.Tolerations = []string{"k:Sometimes"} }, 10, "Workers.Tolerations", "--worker-toleration \"k:Sometimes\""},
		{func(f *Flags) { f.Deadline = time.Second }, 10, "Workers.Deadline", "--worker-deadline 1s"},
		{func(f *Flags) { f.Deadline = -time.Second }, 10, "Workers.Deadline", "0 (automatic) or more"},
		{func(f *Flags) { f.ReadyTimeout = 0 }, 10, "Workers.ReadyTimeout", "--worker-ready-timeout 0s: must be above 0"},
	} {
		f := ok
		tc.f(&f)
		_, err := f.Spec("dev", tc.conc)
		se, isSetting := setting.As(err)
		if !isSetting || se.Name != tc.setting {
			t.Errorf("%+v: err %v, want a setting error naming %s", f, err, tc.setting)
			continue
		}
		if got := se.Render(func(n string) string { return flags[n] }); !strings.Contains(got, tc.want) {
			t.Errorf("%+v: %q, want %q", f, got, tc.want)
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
	pseudo := "v0.0.0-20261206230000-5ae7ac9abcde"
	if DefaultImage("v1.4.0") != ImageRepository+":v1.4.0" || DefaultImage(pseudo) != ImageRepository+":"+pseudo || DefaultImage("dev") != "" || DefaultImage(pseudo+"+dirty") != "" {
		t.Fatal("DefaultImage")
	}
	f.Image = ""
	_, err = f.Spec(pseudo+"+dirty", 10)
	if se, ok := setting.As(err); !ok || se.Name != "Workers.Image" || !strings.Contains(err.Error(), "make image IMAGE=REGISTRY/osctl:"+pseudo+"-dirty") {
		t.Fatalf("a modified checkout's osctl without an image: %v", err)
	}
}
