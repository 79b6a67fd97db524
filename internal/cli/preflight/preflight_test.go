package preflight_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	preflightcmd "github.com/osctl/osctl/internal/cli/preflight"
	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/preflight"
)

const ex = "../../../examples/"

type report struct {
	Results []struct {
		Check string `json:"check"`
		preflight.Result
	} `json:"results"`
	Skipped []struct{ Check, Reason string } `json:"skipped"`
	Errors  []struct{ Check, Reason string } `json:"errors"`
	Summary preflight.Summary                `json:"summary"`
}

// run executes `osctl preflight ARGS` in-process and returns stdout, stderr and the exit code
// Main would give.
func run(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	io, in, out, errOut := cmdutil.Test()
	in.WriteString(stdin)
	f := cmdutil.New("test")
	f.IO = io
	root := &cobra.Command{Use: "osctl", SilenceErrors: true, SilenceUsage: true}
	f.AddGlobalFlags(root)
	root.AddCommand(preflightcmd.NewCmdPreflight(f))
	root.SetArgs(append([]string{"preflight"}, args...))
	root.SetOut(out)
	root.SetErr(errOut)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	err := root.ExecuteContext(ctx)
	code := cmdutil.ExitCode(err)
	var fe *cmdutil.FoundError
	if err != nil && !(errors.As(err, &fe) && fe.Msg == "") {
		fmt.Fprintln(errOut, "Error: "+err.Error())
	}
	return out.String(), errOut.String(), code
}

func parse(t *testing.T, out string) report {
	t.Helper()
	var r report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	return r
}

func has(r report, check, id string, st preflight.Status) bool {
	for _, x := range r.Results {
		if x.Check == check && x.ID == id && x.Status == st {
			return true
		}
	}
	return false
}

func TestManifestsTodayFailsMigratedPasses(t *testing.T) {
	out, _, code := run(t, "", "manifests", "-f", ex+"chart-today/")
	if code != 1 || !strings.Contains(out, "web.rollout-surge") || !strings.Contains(out, "FAIL:") {
		t.Fatalf("today: exit %d\n%s", code, out)
	}
	out, _, code = run(t, "", "manifests", "-f", ex+"chart-migrated/rendered.yaml", "--values", ex+"chart-migrated/values.yaml", "-o", "json")
	r := parse(t, out)
	if code != 0 || r.Summary.Failed || r.Summary.Fail != 0 {
		t.Fatalf("migrated: exit %d\n%s", code, out)
	}
	for _, x := range r.Results {
		if x.ID == "" || x.Status == "" || x.Message == "" || x.Subject == "" {
			t.Errorf("every result needs id, status, subject, message: %+v", x)
		}
	}
}

func TestManifestsFromStdinWithJUnit(t *testing.T) {
	b, err := os.ReadFile(ex + "chart-today/rendered.yaml")
	if err != nil {
		t.Fatal(err)
	}
	junit := filepath.Join(t.TempDir(), "pf.xml")
	out, _, code := run(t, string(b), "manifests", "-f", "-", "--junit", junit, "-o", "json")
	r := parse(t, out)
	if code != 1 || !has(r, "manifests", "web.rollout-surge", preflight.Fail) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	x, err := os.ReadFile(junit)
	if err != nil || !strings.Contains(string(x), `<failure message="one web replica`) {
		t.Fatalf("junit: %v\n%s", err, x)
	}
}

func TestManifestsMalformedNamesFileAndLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(p, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n   oops: 1\n"), 0o644)
	out, errOut, code := run(t, "", "manifests", "-f", p)
	if code != 2 || !strings.Contains(errOut, p+":5: invalid YAML") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Fatalf("want exit 2 and one line naming %s:5, got %d %q %q", p, code, errOut, out)
	}
	_, errOut, code = run(t, "", "manifests")
	if code != 2 || !strings.Contains(errOut, "-f") {
		t.Fatalf("no input: %d %q", code, errOut)
	}
}

func TestManifestsConfigIgnore(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "preflight.yaml")
	os.WriteFile(cfg, []byte("ignore:\n- web.rollout-surge\n- id: nfs.storageclass\n  reason: accepted until the PV is patched\n"), 0o644)
	out, _, code := run(t, "", "manifests", "-f", ex+"chart-today/", "--config", cfg, "-o", "json")
	r := parse(t, out)
	if code != 0 || r.Summary.Failed || !has(r, "manifests", "web.rollout-surge", preflight.Info) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	os.WriteFile(cfg, []byte("ignore: [x]\nbogus: 1\n"), 0o644)
	_, errOut, code := run(t, "", "manifests", "-f", ex+"chart-today/", "--config", cfg)
	if code != 2 || !strings.Contains(errOut, "bogus") {
		t.Fatalf("bad config: %d %q", code, errOut)
	}
}

func TestNFSMountinfoFiles(t *testing.T) {
	for file, wantCode := range map[string]int{"noac.txt": 0, "actimeo60.txt": 1, "default.txt": 1, "sync-only.txt": 1, "noac-nolock-v3.txt": 1} {
		out, errOut, code := run(t, "", "nfs", "--mountinfo", ex+"mountinfo/"+file, "-o", "json")
		if code != wantCode {
			t.Errorf("%s: exit %d, want %d\n%s%s", file, code, wantCode, out, errOut)
		}
	}
	out, _, _ := run(t, "", "nfs", "--mountinfo", ex+"mountinfo/actimeo60.txt")
	if !strings.Contains(out, "up to 60 s") {
		t.Errorf("the table should report the effective seconds:\n%s", out)
	}
	_, errOut, code := run(t, "", "nfs", "--mountinfo", ex+"mountinfo/malformed.txt")
	if code != 2 || !strings.Contains(errOut, "malformed.txt:2: not a mountinfo line: missing - separator") {
		t.Fatalf("malformed: %d %q", code, errOut)
	}
	out, _, code = run(t, "", "nfs", "--mountinfo", "-", "--path", "/srv/x", "-o", "json")
	if code != 2 {
		t.Fatalf("empty stdin is not mountinfo: want exit 2, got %d %s", code, out)
	}
}

func TestNFSNoMountAtPathFails(t *testing.T) {
	out, _, code := run(t, "1 0 0:1 / / rw - ext4 /dev/root rw\n", "nfs", "--mountinfo", "-", "-o", "json")
	r := parse(t, out)
	if code != 1 || !has(r, "nfs", "nfs.mount", preflight.Fail) {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestNFSFlagValidation(t *testing.T) {
	for _, args := range [][]string{{"nfs", "--probe", "a"}, {"nfs", "extra"}, {"nfs", "--probe", "a", "b", "--probe-timeout", "0s"}, {"redis", "--lock-ttl", "0s"}} {
		_, errOut, code := run(t, "", args...)
		if code != 2 || errOut == "" {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
	}
}

func TestBarePreflightRunsWhatHasInput(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	t.Setenv("OSCTL_REDIS", "")
	out, _, code := run(t, "", "-f", ex+"chart-migrated/", "--mountinfo", ex+"mountinfo/noac.txt", "-o", "json")
	r := parse(t, out)
	if code != 0 || len(r.Skipped) != 1 || r.Skipped[0].Check != "redis" || !has(r, "nfs", "nfs.noac", preflight.Pass) || !has(r, "manifests", "nfs.storageclass", preflight.Pass) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	out, _, code = run(t, "")
	if code != 0 || !strings.Contains(out, "skipped manifests") || !strings.Contains(out, "skipped redis") || !strings.Contains(out, "skipped nfs") {
		t.Fatalf("nothing to check: exit %d\n%s", code, out)
	}
}

func TestBarePreflightWithRedis(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	r := testenv.StartRedis(t, testenv.WithArgs("--maxmemory", "64mb", "--maxmemory-policy", "volatile-lru"))
	out, _, code := run(t, "", "--redis", r.URL(), "--mountinfo", ex+"mountinfo/noac.txt", "--clock-interval", "200ms", "-o", "json")
	rep := parse(t, out)
	if code != 1 || !has(rep, "redis", "redis.maxmemory-policy", preflight.Fail) || !has(rep, "nfs", "nfs.noac", preflight.Pass) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	out, _, code = run(t, "", "redis", "--redis", r.URL(), "--clock-interval", "200ms")
	if code != 1 || !strings.Contains(out, "volatile-lru") {
		t.Fatalf("redis: exit %d\n%s", code, out)
	}
}

func TestLiveNFSThroughFlags(t *testing.T) {
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	k.Apply(t, ns, testenv.WebDeployment(1, `containers:
- name: web
  image: nrel/openstudio-server:3.7.0
  volumeMounts: [{name: nfs, mountPath: /mnt/openstudio}]
volumes:
- name: nfs
  nfs: {server: 10.0.12.7, path: /export}
`))
	pod := k.ReadyPods(t, ns, "app=web", 1)[0]
	mi, err := os.ReadFile(ex + "mountinfo/noac.txt")
	if err != nil {
		t.Fatal(err)
	}
	k.SetPodMountinfo(t, ns, pod, string(mi))
	out, errOut, code := run(t, "", "nfs", "--kubeconfig", k.Kubeconfig, "-n", ns, "-o", "json")
	r := parse(t, out)
	if code != 1 || !has(r, "nfs", "nfs.noac", preflight.Pass) || !has(r, "nfs", "nfs.inline", preflight.Fail) {
		t.Fatalf("exit %d %s\n%s", code, errOut, out)
	}
	_, errOut, code = run(t, "", "nfs", "--kubeconfig", k.Kubeconfig, "-n", ns, "--workload", "nope")
	if code != 2 || !strings.Contains(errOut, "not found") {
		t.Fatalf("missing workload: %d %q", code, errOut)
	}
}

// TestManifestsSingleOwnerFlag: --single-owner deployment/elb-openapi on the seed's manifests,
// which carry no annotation: "before" gives exactly the three FAILs (replicas, strategy, PDB,
// exit 1), "after" none (exit 0); without the flag neither is judged.
func TestManifestsSingleOwnerFlag(t *testing.T) {
	out, _, code := run(t, "", "manifests", "-f", ex+"elb-openapi/before.yaml", "--single-owner", "deployment/elb-openapi", "-o", "json")
	r := parse(t, out)
	if code != 1 || r.Summary.Fail != 3 {
		t.Fatalf("before: exit %d, %d FAILs, want 1 and 3\n%s", code, r.Summary.Fail, out)
	}
	for _, id := range []string{"single-owner.replicas", "single-owner.strategy", "single-owner.pdb"} {
		if !has(r, "manifests", id, preflight.Fail) {
			t.Errorf("before: no FAIL %s\n%s", id, out)
		}
	}
	out, _, code = run(t, "", "manifests", "-f", ex+"elb-openapi/after.yaml", "--single-owner", "deploy/elb-openapi", "-o", "json")
	r = parse(t, out)
	if code != 0 || r.Summary.Fail != 0 || r.Summary.Pass != 4 {
		t.Fatalf("after: exit %d, %d FAILs, %d PASS, want 0, 0 and 4\n%s", code, r.Summary.Fail, r.Summary.Pass, out)
	}
	out, _, code = run(t, "", "manifests", "-f", ex+"elb-openapi/before.yaml", "-o", "json")
	if r = parse(t, out); code != 0 || r.Summary.Fail != 0 {
		t.Fatalf("before without --single-owner: exit %d\n%s", code, out)
	}
}

// TestRedisExplanationNamesTheFlags: a master that wants a password the URL does not give is a
// FAIL whose message names the password flags, not the library's setting names.
func TestRedisExplanationNamesTheFlags(t *testing.T) {
	r := testenv.StartRedis(t, testenv.WithPassword("s3cret-pw"))
	out, _, code := run(t, "", "redis", "--redis", "redis://"+r.Addr, "--clock-interval", "200ms")
	if code != 1 || !strings.Contains(out, "--redis-password-file or --redis-secret") || strings.Contains(out, "{Redis.") || strings.Contains(out, "s3cret-pw") {
		t.Fatalf("exit %d, want 1 and the password flags named:\n%s", code, out)
	}
}
