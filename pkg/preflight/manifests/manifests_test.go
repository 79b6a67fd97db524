package manifests_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/manifests"
	"github.com/osctl/osctl/pkg/preflight/nfscheck"
)

func load(t *testing.T, paths ...string) []manifests.Object {
	t.Helper()
	in, err := manifests.Load(paths, nil)
	if err != nil {
		t.Fatal(err)
	}
	return in.Objects
}

func eval(t *testing.T, in manifests.Input) []preflight.Result {
	t.Helper()
	rs, err := manifests.Evaluate(in)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func get(rs []preflight.Result, id, subject string) (preflight.Result, bool) {
	for _, r := range rs {
		if r.ID == id && (subject == "" || r.Subject == subject) {
			return r, true
		}
	}
	return preflight.Result{}, false
}

func want(t *testing.T, rs []preflight.Result, id, subject string, st preflight.Status, text string) {
	t.Helper()
	r, ok := get(rs, id, subject)
	if !ok {
		t.Fatalf("no %s for %q in:\n%s", id, subject, dump(rs))
	}
	if r.Status != st || !strings.Contains(r.Message, text) {
		t.Errorf("%s %s: got %s %q, want %s containing %q", id, subject, r.Status, r.Message, st, text)
	}
}

func dump(rs []preflight.Result) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "  %-7s %-26s %-22s %s\n", r.Status, r.ID, r.Subject, r.Message)
	}
	return b.String()
}

const examples = "../../../examples/"

func TestChartToday(t *testing.T) {
	vals, err := manifests.LoadValues(examples + "chart-today/values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rs := eval(t, manifests.Input{Objects: load(t, examples+"chart-today/rendered.yaml"), Values: vals})
	want(t, rs, manifests.RuleRolloutSurge, "deployment/web", preflight.Fail, "maxSurge 1")
	want(t, rs, nfscheck.RuleSCOptions, "storageclass/nfs", preflight.Fail, "vers=4,sync")
	want(t, rs, nfscheck.RuleGanesha, "deployment/web", preflight.Warn, "osrel-nfs-server-provisioner")
	want(t, rs, manifests.RuleHPALocking, "hpa/web", preflight.Pass, "")
	want(t, rs, manifests.RuleReplicasWithHPA, "deployment/web", preflight.Warn, "every apply resets")
	want(t, rs, manifests.RulePassenger, "deployment/web", preflight.Pass, "capacity 132")
}

func TestChartMigratedPasses(t *testing.T) {
	in, err := manifests.Load([]string{examples + "chart-migrated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.ValuesFiles) != 1 {
		t.Fatalf("the directory's values.yaml should be recognised as values: %v", in.ValuesFiles)
	}
	vals, err := manifests.LoadValues(in.ValuesFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	rs := eval(t, manifests.Input{Objects: in.Objects, Values: vals})
	if preflight.Failed(rs) {
		t.Fatalf("the migrated chart must not FAIL:\n%s", dump(rs))
	}
	want(t, rs, manifests.RuleHPALocking, "hpa/web", preflight.Info, "only a signal")
	want(t, rs, nfscheck.RuleSCOptions, "storageclass/nfs", preflight.Pass, "noac")
	want(t, rs, manifests.RulePDB, "deployment/web", preflight.Pass, "")
	want(t, rs, manifests.RuleSpread, "deployment/web", preflight.Pass, "")
}

func TestLockingSignalFromValues(t *testing.T) {
	objs := load(t, examples+"chart-today/rendered.yaml")
	v, err := manifests.ParseValues([]byte("web_hpa:\n  maxReplicas: 6\n  distributedLocking:\n    enabled: false\n"), "v.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The HPA in the manifests says 1; the rendered objects decide, values only add the flag.
	rs := eval(t, manifests.Input{Objects: objs, Values: v})
	want(t, rs, manifests.RuleRolloutSurge, "deployment/web", preflight.Fail, "without locking")
	v, _ = manifests.ParseValues([]byte("web_hpa: {distributedLocking: {enabled: true}}\n"), "v.yaml")
	rs = eval(t, manifests.Input{Objects: objs, Values: v})
	want(t, rs, manifests.RuleRolloutSurge, "deployment/web", preflight.Info, "locking flagged")
}

func TestPhase1HPAWithoutLockingFails(t *testing.T) {
	b, err := os.ReadFile(examples + "chart-today/rendered.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "  minReplicas: 1\n  maxReplicas: 1\n", "  minReplicas: 2\n  maxReplicas: 6\n", 1)
	objs, err := manifests.ParseDocuments([]byte(s), "phase1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rs := eval(t, manifests.Input{Objects: objs})
	want(t, rs, manifests.RuleHPALocking, "hpa/web", preflight.Fail, "maxReplicas 6")
	want(t, rs, manifests.RulePDB, "deployment/web", preflight.Warn, "no PodDisruptionBudget")
	want(t, rs, manifests.RuleSpread, "deployment/web", preflight.Warn, "one NFS client cache")
	want(t, rs, nfscheck.RuleSCOptions, "storageclass/nfs", preflight.Fail, "HPA maxReplicas 6")
}

func TestSingleOwner(t *testing.T) {
	rs := eval(t, manifests.Input{Objects: load(t, "testdata/single-owner-good.yaml")})
	for _, id := range []string{manifests.RuleSingleReplicas, manifests.RuleSingleHPA, manifests.RuleSingleStrategy, manifests.RuleSinglePDB} {
		want(t, rs, id, "deployment/elb-openapi", preflight.Pass, "")
	}
	want(t, rs, manifests.RuleWeb, "input", preflight.Info, "web rules are skipped")

	rs = eval(t, manifests.Input{Objects: load(t, "testdata/single-owner-bad.yaml")})
	want(t, rs, manifests.RuleSingleReplicas, "deployment/elb-openapi", preflight.Fail, "2 replicas")
	want(t, rs, manifests.RuleSingleHPA, "deployment/elb-openapi", preflight.Fail, "to 3")
	want(t, rs, manifests.RuleSingleStrategy, "deployment/elb-openapi", preflight.Fail, "maxSurge 1")
	want(t, rs, manifests.RuleSinglePDB, "deployment/elb-openapi", preflight.Fail, "blocks every node drain")
	want(t, rs, manifests.RuleReplicasWithHPA, "deployment/elb-openapi", preflight.Warn, "")
}

// singleOwnerStatuses returns the status of each single-owner rule for deployment/elb-openapi.
func singleOwnerStatuses(rs []preflight.Result) map[string]preflight.Status {
	out := map[string]preflight.Status{}
	for _, r := range rs {
		if strings.HasPrefix(r.ID, "single-owner.") && r.Subject == "deployment/elb-openapi" {
			out[r.ID] = r.Status
		}
	}
	return out
}

// TestSingleOwnerNamed: elb-openapi's manifests carry no annotation. Unnamed, no single-owner
// rule runs; named (--single-owner), the "before" manifests FAIL on replicas, strategy and PDB,
// the "after" manifests pass all four; a name the input lacks is a *NoWorkloadError.
func TestSingleOwnerNamed(t *testing.T) {
	before := load(t, examples+"elb-openapi/before.yaml")
	if got := singleOwnerStatuses(eval(t, manifests.Input{Objects: before})); len(got) != 0 {
		t.Fatalf("unnamed and unannotated, single-owner rules ran: %v", got)
	}
	rs := eval(t, manifests.Input{Objects: before, SingleOwners: []string{"elb-openapi"}})
	want(t, rs, manifests.RuleSingleReplicas, "deployment/elb-openapi", preflight.Fail, "2 replicas")
	want(t, rs, manifests.RuleSingleHPA, "deployment/elb-openapi", preflight.Pass, "")
	want(t, rs, manifests.RuleSingleStrategy, "deployment/elb-openapi", preflight.Fail, "maxSurge 1 / maxUnavailable 0")
	want(t, rs, manifests.RuleSinglePDB, "deployment/elb-openapi", preflight.Fail, "minAvailable 1")
	if n := preflight.Summarize(rs).Fail; n != 3 {
		t.Errorf("before: %d FAILs, want 3:\n%s", n, dump(rs))
	}

	rs = eval(t, manifests.Input{Objects: load(t, examples+"elb-openapi/after.yaml"), SingleOwners: []string{"elb-openapi"}})
	for id, st := range singleOwnerStatuses(rs) {
		if st != preflight.Pass {
			t.Errorf("after: %s is %s:\n%s", id, st, dump(rs))
		}
	}
	if got := singleOwnerStatuses(rs); len(got) != 4 {
		t.Errorf("after: %d single-owner rules ran, want 4: %v", len(got), got)
	}

	_, err := manifests.Evaluate(manifests.Input{Objects: before, SingleOwners: []string{"elb-openapi", "queue"}})
	var nw *manifests.NoWorkloadError
	if !errors.As(err, &nw) || nw.Name != "queue" || !strings.Contains(err.Error(), `no Deployment named "queue" in the input (it holds elb-openapi)`) {
		t.Fatalf("unknown name: %v", err)
	}
}

func TestStaticPVAndPassenger(t *testing.T) {
	rs := eval(t, manifests.Input{Objects: load(t, "testdata/static-pv.yaml")})
	want(t, rs, manifests.RuleWeb, "deployment/frontend", preflight.Info, "web workload")
	want(t, rs, nfscheck.RulePVOptions, "pv/shared", preflight.Fail, "actimeo=30")
	want(t, rs, manifests.RulePassenger, "deployment/frontend", preflight.Warn, "85.2:1")
	want(t, rs, manifests.RuleHPALocking, "hpa/frontend", preflight.Info, "annotation osctl.io/distributed-locking")
}

func TestKubectlListAndInlineNFS(t *testing.T) {
	rs := eval(t, manifests.Input{Objects: load(t, "testdata/kubectl-list.yaml")})
	want(t, rs, nfscheck.RuleInline, "deployment/web", preflight.Fail, "cannot carry mount options")
	want(t, rs, manifests.RuleRolloutSurge, "deployment/web", preflight.Pass, "")
}

func TestIgnoreByAnnotationAndConfig(t *testing.T) {
	b, _ := os.ReadFile(examples + "chart-today/rendered.yaml")
	s := strings.Replace(string(b), "metadata:\n  name: web\nspec:\n  replicas: 1", "metadata:\n  name: web\n  annotations:\n    osctl.io/ignore: \"web.rollout-surge, nfs.storageclass\"\nspec:\n  replicas: 1", 1)
	objs, err := manifests.ParseDocuments([]byte(s), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rs := manifests.ApplyIgnores(eval(t, manifests.Input{Objects: objs}), objs, nil)
	want(t, rs, manifests.RuleRolloutSurge, "deployment/web", preflight.Info, "ignored by annotation osctl.io/ignore on deployment/web")
	want(t, rs, nfscheck.RuleSCOptions, "storageclass/nfs", preflight.Info, "was FAIL")
	if preflight.Failed(rs) {
		t.Fatalf("both FAILs were ignored:\n%s", dump(rs))
	}
	cfg := &preflight.Config{Ignore: []preflight.IgnoreRule{{ID: "deploy.*"}, {ID: "nfs.ganesha", Subject: "deployment/other"}}}
	rs = manifests.ApplyIgnores(eval(t, manifests.Input{Objects: objs}), objs, cfg)
	want(t, rs, manifests.RuleReplicasWithHPA, "deployment/worker", preflight.Info, "ignored by the config file")
	want(t, rs, nfscheck.RuleGanesha, "deployment/web", preflight.Warn, "")
}

func TestValuesOnly(t *testing.T) {
	v, err := manifests.LoadValues(examples + "chart-today/values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rs := eval(t, manifests.Input{Values: v})
	want(t, rs, nfscheck.RuleSCOptions, "values/values.yaml", preflight.Warn, "lacks noac")
	want(t, rs, nfscheck.RuleGanesha, "values/values.yaml", preflight.Warn, "")
	v, _ = manifests.ParseValues([]byte("web_hpa: {maxReplicas: 4}\nnfs-server-provisioner: {storageClass: {mountOptions: [vers=3]}}\n"), "v.yaml")
	rs = eval(t, manifests.Input{Values: v})
	want(t, rs, manifests.RuleHPALocking, "values/v.yaml", preflight.Fail, "maxReplicas 4")
	want(t, rs, nfscheck.RuleSCOptions, "values/v.yaml", preflight.Fail, "")
}

func TestParseDocuments(t *testing.T) {
	src := `# leading comment
---
# Source: chart/templates/a.yaml
# only comments here
---

---
# Source: chart/templates/b.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: b   # trailing comment
--- # a comment on the separator
apiVersion: v1
kind: ConfigMap
metadata: {name: c}
...
--- {apiVersion: v1, kind: ConfigMap, metadata: {name: d}}
`
	objs, err := manifests.ParseDocuments([]byte(src), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range objs {
		got = append(got, fmt.Sprintf("%s@%d", o.Name, o.Line))
	}
	if strings.Join(got, " ") != "b@8 c@14 d@18" {
		t.Fatalf("got %v", got)
	}
}

func TestParseErrorsNameFileAndLine(t *testing.T) {
	cases := []struct {
		src  string
		line int
		text string
	}{
		{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: X\nmetadata:\n  name: b\n   bad: indent\n", 9, "invalid YAML"},
		{"apiVersion: v1\nkind: ConfigMap\n---\n- a\n- b\n", 4, "not a mapping"},
		{"---\nfoo: bar\n", 2, "no kind"},
		{"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: two\n", 1, "Deployment web"},
		{"a: [1, 2\n", 1, "invalid YAML"},
	}
	for i, c := range cases {
		objs, err := manifests.ParseDocuments([]byte(c.src), "bad.yaml")
		if err == nil {
			_, err = manifests.Evaluate(manifests.Input{Objects: objs})
		}
		var ie *manifests.InputError
		if !errors.As(err, &ie) || ie.File != "bad.yaml" || ie.Line != c.line || !strings.Contains(err.Error(), c.text) {
			t.Errorf("case %d: want bad.yaml:%d ... %q, got %v", i, c.line, c.text, err)
			continue
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("case %d: multi-line error %q", i, err)
		}
	}
	if _, err := manifests.ParseValues([]byte("a: 1\nb:\n  - x\n  y: 2\n"), "values.yaml"); err == nil || !strings.HasPrefix(err.Error(), "values.yaml:") {
		t.Errorf("values error should name the file and line: %v", err)
	}
}

func TestOtherWorkloadOnTheClaimMakesTwoClients(t *testing.T) {
	b, err := os.ReadFile(examples + "chart-today/rendered.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// Strategy Recreate: the web tier alone never runs two pods, but web-background mounts the
	// same claim (as in the real chart).
	s := strings.Replace(string(b), "    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 1\n      maxUnavailable: 1\n", "    type: Recreate\n", 1)
	s += `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-background}
spec:
  selector: {matchLabels: {app: web-background}}
  template:
    metadata: {labels: {app: web-background}}
    spec:
      containers: [{name: bg, image: x, volumeMounts: [{name: nfs, mountPath: /mnt/openstudio}]}]
      volumes: [{name: nfs, persistentVolumeClaim: {claimName: nfs-pvc}}]
`
	objs, err := manifests.ParseDocuments([]byte(s), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rs := eval(t, manifests.Input{Objects: objs})
	want(t, rs, manifests.RuleRolloutSurge, "deployment/web", preflight.Pass, "")
	want(t, rs, nfscheck.RuleSCOptions, "storageclass/nfs", preflight.Fail, "also mounted by deployment/web-background")
}
