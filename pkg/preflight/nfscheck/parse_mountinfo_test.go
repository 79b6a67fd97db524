package nfscheck_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/nfscheck"
)

func parseFile(t *testing.T, name string) []nfscheck.Mount {
	t.Helper()
	ms, err := nfscheck.ParseMountinfo(strings.NewReader(readTestdata(t, name)), name)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestParseMountinfoFields(t *testing.T) {
	ms := parseFile(t, "kernel-6.1.txt")
	m, ok := nfscheck.FindMount(ms, "/srv/lab/with space/dir/file")
	if !ok || m.MountPoint != "/srv/lab/with space" || m.FSType != "nfs4" || m.Source != "127.0.0.1:/" {
		t.Fatalf("the \\040 escape: got %+v", m)
	}
	m, _ = nfscheck.FindMount(ms, "/srv/lab/noac")
	if m.ID != 27 || m.Parent != 22 || m.Major != 0 || m.Minor != 25 || m.Options != "rw,relatime" || !strings.Contains(m.Super, "noac") {
		t.Fatalf("fields after an optional field: %+v", m)
	}
	pod := parseFile(t, "pod-noac.txt")
	m, _ = nfscheck.FindMount(pod, "/mnt/openstudio/server/assets")
	if m.Root != "/pvc-6c1f/web" || !m.IsNFS() {
		t.Fatalf("subPath mount: %+v", m)
	}
}

func TestFindMountLongestPrefixAndStacking(t *testing.T) {
	ms := parseFile(t, "kernel-6.1.txt")
	cases := map[string]string{
		"/srv/lab/noac/x/y":       "/srv/lab/noac",
		"/srv/lab/noacX":          "/",
		"/srv/lab":                "/",
		"/srv/lab/stacked/a":      "/srv/lab/stacked",
		"srv/lab/caching/../noac": "/srv/lab/noac",
	}
	for p, want := range cases {
		m, ok := nfscheck.FindMount(ms, p)
		if !ok || m.MountPoint != want {
			t.Errorf("FindMount(%q) = %q, want %q", p, m.MountPoint, want)
		}
	}
	if m, _ := nfscheck.FindMount(ms, "/srv/lab/stacked"); m.FSType != "nfs" {
		t.Errorf("the mount on top (the later line) must win, got %s", m.FSType)
	}
}

func TestParseMountinfoErrorsNameTheLine(t *testing.T) {
	cases := map[string]string{
		"too few fields":  "22 1 0:21 / / rw - hostfs\n",
		"no separator":    "22 1 0:21 / / rw a b c d e f\n",
		"id not a number": "x 1 0:21 / / rw - hostfs none rw\n",
		"bad device":      "22 1 021 / / rw - hostfs none rw\n",
		"relative mount":  "22 1 0:21 / mnt rw - hostfs none rw\n",
		"bad escape":      `22 1 0:21 / /a\04 rw - hostfs none rw` + "\n",
	}
	for name, line := range cases {
		text := "21 1 0:20 / / rw - ext4 /dev/root rw\n\n" + line
		_, err := nfscheck.ParseMountinfo(strings.NewReader(text), "mi.txt")
		var pe *nfscheck.ParseError
		if !errors.As(err, &pe) || pe.Line != 3 || !strings.HasPrefix(err.Error(), "mi.txt:3: ") {
			t.Errorf("%s: want an error naming mi.txt:3, got %v", name, err)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: the error must be one line: %q", name, err)
		}
	}
}

func TestGradeTable(t *testing.T) {
	ms := parseFile(t, "kernel-6.1.txt")
	type want struct {
		id     string
		status preflight.Status
		text   string
	}
	cases := map[string][]want{
		"noac":         {{nfscheck.RuleNoac, preflight.Pass, "0 s"}, {nfscheck.RuleLocking, preflight.Pass, "NLM"}},
		"caching":      {{nfscheck.RuleNoac, preflight.Fail, "60 s (acregmin=60 acregmax=60 acdirmin=60 acdirmax=60)"}},
		"default":      {{nfscheck.RuleNoac, preflight.Fail, "60 s (acregmin=3 acregmax=60 acdirmin=30 acdirmax=60)"}},
		"actimeo0":     {{nfscheck.RuleNoac, preflight.Warn, "without sync"}},
		"actimeo0sync": {{nfscheck.RuleNoac, preflight.Pass, "with sync"}},
		"synconly":     {{nfscheck.RuleNoac, preflight.Fail, "sync alone"}},
		"nocto":        {{nfscheck.RuleNoac, preflight.Pass, ""}, {nfscheck.RuleCTO, preflight.Fail, "nocto"}},
		"lookupnone":   {{nfscheck.RuleLookupcache, preflight.Info, "lookupcache=none"}},
		"soft":         {{nfscheck.RuleHard, preflight.Warn, "soft"}},
		"softerr":      {{nfscheck.RuleHard, preflight.Warn, "softerr"}},
		"nolock":       {{nfscheck.RuleLocking, preflight.Fail, "nolock"}},
		"v4nolock":     {{nfscheck.RuleLocking, preflight.Pass, "v4 ignores"}},
	}
	for name, ws := range cases {
		rs := nfscheck.GradePath(ms, "/srv/lab/"+name+"/data", name, nfscheck.GradeOptions{AppLocksFiles: true})
		must(t, rs, nfscheck.RuleMount, name, preflight.Pass)
		for _, w := range ws {
			r := must(t, rs, w.id, name, w.status)
			if !strings.Contains(r.Message, w.text) {
				t.Errorf("%s %s: message %q lacks %q", name, w.id, r.Message, w.text)
			}
		}
	}
	// Without application file locks, nolock is a WARN.
	rs := nfscheck.GradePath(ms, "/srv/lab/nolock", "x", nfscheck.GradeOptions{})
	must(t, rs, nfscheck.RuleLocking, "x", preflight.Warn)
}

func TestGradeNoNFSMountFails(t *testing.T) {
	ms := parseFile(t, "kernel-6.1.txt")
	rs := nfscheck.GradePath(ms, "/mnt/openstudio", "/mnt/openstudio", nfscheck.GradeOptions{})
	r := must(t, rs, nfscheck.RuleMount, "/mnt/openstudio", preflight.Fail)
	if !strings.Contains(r.Message, "hostfs") || len(rs) != 1 {
		t.Fatalf("want one FAIL naming the filesystem found: %v", rs)
	}
}

func TestParseOptionsMountShorthands(t *testing.T) {
	o := nfscheck.ParseOptions([]string{"vers=3,actimeo=30", "lookupcache=pos"}, "nfs")
	if o.StaleSeconds() != 30 || !o.IsV3() || o.Lookupcache != "pos" {
		t.Fatalf("%+v", o)
	}
	if !nfscheck.HasNoac([]string{"vers=4", "noac"}) || nfscheck.HasNoac([]string{"vers=4", "sync"}) || !nfscheck.HasNoac([]string{"actimeo=0,sync"}) {
		t.Fatal("HasNoac")
	}
	a := nfscheck.ParseOptions([]string{"vers=3,acregmin=60,acdirmin=60"}, "nfs")
	b := nfscheck.ParseOptions([]string{"vers=3,actimeo=60"}, "nfs")
	if a.Signature() != b.Signature() {
		t.Fatalf("the kernel's form and the mount shorthand must agree: %s vs %s", a.Signature(), b.Signature())
	}
}

func TestDisagreement(t *testing.T) {
	r := nfscheck.Disagreement("deployment/web", map[string]string{"pod/a": "x", "pod/b": "x"})
	if r.Status != preflight.Pass {
		t.Fatal(r)
	}
	r = nfscheck.Disagreement("deployment/web", map[string]string{"pod/a": "x", "pod/b": "y", "pod/c": "x"})
	if r.Status != preflight.Fail || !strings.Contains(r.Message, "pod/a pod/c: x") || !strings.Contains(r.Message, "pod/b: y") {
		t.Fatal(r)
	}
}

func TestParseAttrExpiration(t *testing.T) {
	conf := "EXPORT\n{\n  Export_Id = 1;\n  Path = /export;\n}\nCACHEINODE {\n    Attr_Expiration_Time = 0;\n}\n"
	if n, ok := nfscheck.ParseAttrExpiration(conf); !ok || n != 0 {
		t.Fatal(n, ok)
	}
	if _, ok := nfscheck.ParseAttrExpiration("EXPORT { Path = /x; }"); ok {
		t.Fatal("no setting")
	}
}

func TestGaneshaIncludes(t *testing.T) {
	// nfs-provisioner's vfs.conf after contrib/helm's init container ran, plus the other forms
	// Ganesha's parser takes.
	conf := "EXPORT\n{\n\tExport_Id = 0;\n}\n\n%include \"/export/osctl-attr-cache.conf\"\n  %include /etc/ganesha/more.conf\n# %include \"/commented\"\n"
	got := nfscheck.GaneshaIncludes(conf)
	want := []string{"/export/osctl-attr-cache.conf", "/etc/ganesha/more.conf"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := nfscheck.GaneshaIncludes("EXPORT { Path = /x; }"); len(got) != 0 {
		t.Fatalf("no include: got %q", got)
	}
}
