package helm_test

import (
	"encoding/json"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/osctl/osctl/pkg/preflight/manifests"
)

// deployments decodes the Deployments of a rendered chart by name.
func deployments(t *testing.T, rendered []byte) map[string]*appsv1.Deployment {
	t.Helper()
	objs, err := manifests.ParseDocuments(rendered, "rendered")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*appsv1.Deployment{}
	for _, o := range objs {
		if o.Kind != "Deployment" {
			continue
		}
		d := &appsv1.Deployment{}
		if err := json.Unmarshal(o.JSON, d); err != nil {
			t.Fatal(err)
		}
		out[d.Name] = d
	}
	return out
}

// checkLockSettings checks what preflight manifests does not grade: the three images carry the
// lock, the lock's env (holder value, Redis) is in web and web-background, and the HPAs own the
// replica counts of web and worker.
func checkLockSettings(t *testing.T, rendered []byte) {
	t.Helper()
	ds := deployments(t, rendered)
	for _, name := range []string{"web", "web-background", "worker"} {
		d := ds[name]
		if d == nil {
			t.Fatalf("no Deployment %s in the render", name)
		}
		if img := d.Spec.Template.Spec.Containers[0].Image; strings.HasPrefix(img, "nrel/openstudio-server:") {
			t.Errorf("deployment/%s runs upstream's image %s, not one with the lock", name, img)
		}
		if name == "worker" {
			continue
		}
		env := map[string]string{}
		for _, e := range d.Spec.Template.Spec.Containers[0].Env {
			switch {
			case e.ValueFrom != nil && e.ValueFrom.FieldRef != nil:
				env[e.Name] = "field " + e.ValueFrom.FieldRef.FieldPath
			case e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil:
				s := e.ValueFrom.SecretKeyRef
				env[e.Name] = "secret " + s.Name + "/" + s.Key
				if s.Optional == nil || !*s.Optional {
					env[e.Name] += " (required)"
				}
			default:
				env[e.Name] = "set"
			}
		}
		for k, want := range map[string]string{"POD_NAME": "field metadata.name", "POD_NAMESPACE": "field metadata.namespace",
			"REDLOCK_URLS": "secret osctl-redlock/urls", "REDIS_URL": "set"} {
			if env[k] != want {
				t.Errorf("deployment/%s env %s: got %q, want %q", name, k, env[k], want)
			}
		}
	}
	for _, name := range []string{"web", "worker"} {
		if r := ds[name].Spec.Replicas; r != nil {
			t.Errorf("deployment/%s sets spec.replicas %d: its HPA owns it", name, *r)
		}
	}
}
