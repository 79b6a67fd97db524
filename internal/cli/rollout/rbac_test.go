package rollout_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/yaml"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/rollouttest"
	"github.com/osctl/osctl/pkg/rollout"
)

// docRoles reads the Role and ClusterRole of docs/migration/rbac-rollout.yaml.
func docRoles(t *testing.T) (*rbacv1.Role, *rbacv1.ClusterRole) {
	t.Helper()
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(root, rollout.RBACDoc))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var role *rbacv1.Role
	var cr *rbacv1.ClusterRole
	dec := yaml.NewYAMLOrJSONDecoder(f, 4096)
	for {
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			break
		}
		raw, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		switch obj["kind"] {
		case "Role":
			role = &rbacv1.Role{}
			if err := json.Unmarshal(raw, role); err != nil {
				t.Fatal(err)
			}
		case "ClusterRole":
			cr = &rbacv1.ClusterRole{}
			if err := json.Unmarshal(raw, cr); err != nil {
				t.Fatal(err)
			}
		}
	}
	if role == nil || cr == nil {
		t.Fatalf("%s lacks a Role or a ClusterRole", rollout.RBACDoc)
	}
	return role, cr
}

// The documented rules grant exactly what the code asks for: each required permission is in
// the docs, and each documented verb is required.
func TestRBACDocMatchesCode(t *testing.T) {
	role, cr := docRoles(t)
	granted := map[string]bool{}
	add := func(rules []rbacv1.PolicyRule, ns string) {
		for _, r := range rules {
			for _, g := range r.APIGroups {
				for _, res := range r.Resources {
					for _, v := range r.Verbs {
						granted[v+" "+g+" "+res+" "+ns] = true
					}
				}
			}
		}
	}
	add(role.Rules, "ns")
	add(cr.Rules, "")
	needed := map[string]bool{}
	for _, p := range rollout.RequiredPermissions("ns", rollout.Needs{Change: true, Watch: true, PodsGate: true, NFSGate: true}) {
		res := p.Resource
		if p.Subresource != "" {
			res += "/" + p.Subresource
		}
		key := p.Verb + " " + p.Group + " " + res + " " + p.Namespace
		needed[key] = true
		if !granted[key] {
			t.Errorf("%s does not grant %s, which osctl rollout checks for", rollout.RBACDoc, p)
		}
	}
	for g := range granted {
		if !needed[g] {
			t.Errorf("%s grants %q, which osctl rollout does not need", rollout.RBACDoc, g)
		}
	}
}

// bindSA creates ServiceAccount osctl bound to role (in ns) and cr (cluster-wide) and returns
// its kubeconfig.
func bindSA(t *testing.T, k *testenv.Kube, ns string, role *rbacv1.Role, cr *rbacv1.ClusterRole) string {
	t.Helper()
	ctx := context.Background()
	cs := k.Clients.Clientset
	role.Namespace, role.ResourceVersion = ns, ""
	cr.Name = "osctl-rollout-nfs-" + ns
	if _, err := cs.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "osctl"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.RbacV1().Roles(ns).Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.RbacV1().ClusterRoles().Create(ctx, cr, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.RbacV1().ClusterRoles().Delete(context.Background(), cr.Name, metav1.DeleteOptions{})
		_ = cs.RbacV1().ClusterRoleBindings().Delete(context.Background(), cr.Name, metav1.DeleteOptions{})
	})
	subj := []rbacv1.Subject{{Kind: "ServiceAccount", Name: "osctl", Namespace: ns}}
	if _, err := cs.RbacV1().RoleBindings(ns).Create(ctx, &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "osctl-rollout"},
		RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: role.Name}, Subjects: subj}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: cr.Name},
		RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: cr.Name}, Subjects: subj}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return k.ServiceAccountKubeconfig(t, ns, "osctl")
}

// A ServiceAccount bound to the documented Role and ClusterRole runs a rollout with the nfs and
// pods gates and the preconditions; without patch on the HPA it gets one error naming what is
// missing, and nothing changes.
func TestRBACServiceAccount(t *testing.T) {
	t.Parallel()
	k := testenv.SharedKube(t)
	rd := testenv.StartRedis(t)

	t.Run("documented role works", func(t *testing.T) {
		t.Parallel()
		w := rollouttest.New(t, k, rollouttest.Options{})
		role, cr := docRoles(t)
		kc := bindSA(t, k, w.NS, role, cr)
		report := rollouttest.StressReport(t, w.NS, "clean", true, rollouttest.Image, 2, time.Now().Add(-time.Hour))
		code, out, errOut := osctl(t, kc, w.NS, 120*time.Second, "--redis", rd.URL(), "rollout", "run", "--hpa", "web", "--steps", "1,2",
			"--hold", "1s", "--gate-interval", "500ms", "--gates", "nfs,pods", "--stress-report", report, "--yes")
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		mustContain(t, "stderr", errOut, "nfs PASS")
		if strings.Contains(errOut, "could not record") {
			t.Errorf("the Role does not allow Events: %s", errOut)
		}
		if min, max, _ := w.HPA(t); min != 2 || max != 2 {
			t.Fatalf("HPA %d-%d, want 2-2", min, max)
		}
		code, out, errOut = osctl(t, kc, w.NS, 60*time.Second, "rollout", "undo", "--hpa", "web", "--yes")
		if code != 0 || !strings.Contains(out, "restored to 1-1") {
			t.Fatalf("undo as the ServiceAccount: exit %d\n%s\n%s", code, out, errOut)
		}
	})

	t.Run("without patch", func(t *testing.T) {
		t.Parallel()
		w := rollouttest.New(t, k, rollouttest.Options{})
		role, cr := docRoles(t)
		for i, r := range role.Rules {
			if r.Resources[0] == "horizontalpodautoscalers" {
				role.Rules[i].Verbs = []string{"get", "list", "watch"}
			}
		}
		kc := bindSA(t, k, w.NS, role, cr)
		code, out, errOut := osctl(t, kc, w.NS, 60*time.Second, "--redis", rd.URL(), "rollout", "run", "--hpa", "web", "--steps", "1,2",
			"--hold", "1s", "--gates", "pods", "--skip-validation", "--yes")
		if code != 2 {
			t.Fatalf("exit %d, want 2\n%s\n%s", code, out, errOut)
		}
		mustContain(t, "stderr", errOut, "patch horizontalpodautoscalers.autoscaling", "Nothing was changed", rollout.RBACDoc, "system:serviceaccount:"+w.NS+":osctl")
		if strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("want one line, got:\n%s", errOut)
		}
		min, max, ann := w.HPA(t)
		if min != 1 || max != 1 || ann[rollout.AnnotationJournal] != "" {
			t.Fatalf("HPA changed: %d-%d %v", min, max, ann)
		}
		if _, err := k.Clients.Clientset.CoordinationV1().Leases(w.NS).Get(context.Background(), rollout.LeaseName("web"), metav1.GetOptions{}); err == nil {
			t.Fatal("a Lease was created")
		}
	})
}
