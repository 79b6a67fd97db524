package helm_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/preflight/nfscheck"
)

const ganeshaDir = "kustomize/ganesha"

// includeAttrCache runs the init container's script on conf, as the pod does.
func includeAttrCache(t *testing.T, conf string) string {
	t.Helper()
	src, err := filepath.Abs(ganeshaDir)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("/bin/sh", filepath.Join(src, "include-attr-cache.sh"), conf, src).CombinedOutput()
	if err != nil {
		t.Fatalf("include-attr-cache.sh: %v\n%s", err, out)
	}
	return string(out)
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkIncluded checks that conf includes, once, a file that sets Attr_Expiration_Time = 0, as
// osctl preflight nfs reads it in the server pod.
func checkIncluded(t *testing.T, conf string) {
	t.Helper()
	incs := nfscheck.GaneshaIncludes(read(t, conf))
	want := filepath.Join(filepath.Dir(conf), "osctl-attr-cache.conf")
	if len(incs) != 1 || incs[0] != want {
		t.Fatalf("includes %q, want [%s]", incs, want)
	}
	if n, ok := nfscheck.ParseAttrExpiration(read(t, incs[0])); !ok || n != 0 {
		t.Fatalf("%s: Attr_Expiration_Time %d (found %t), want 0", incs[0], n, ok)
	}
}

// TestIncludeAttrCacheOnAFreshVolume: no vfs.conf yet (a new install): the script writes
// nfs-provisioner's own default config, then the include, so that the provisioner finds a config
// and keeps it.
func TestIncludeAttrCacheOnAFreshVolume(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "vfs.conf")
	includeAttrCache(t, conf)
	got := read(t, conf)
	for _, want := range []string{"MNT_Port = 20048;", "Export_Id = 0;", "Grace_Period = 90;"} {
		if !strings.Contains(got, want) {
			t.Errorf("fresh vfs.conf lacks the provisioner's default %q:\n%s", want, got)
		}
	}
	checkIncluded(t, conf)
}

// TestIncludeAttrCacheOnAnExistingConfig: a volume the provisioner has served (an upgrade): its
// EXPORT blocks stay as they are, the include is added once, and a second start changes nothing.
func TestIncludeAttrCacheOnAnExistingConfig(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "vfs.conf")
	existing := "EXPORT\n{\n\tExport_Id = 0;\n\tPath = /nonexistent;\n}\n\nEXPORT\n{\n\tExport_Id = 1;\n\tPath = /export/pvc-1;\n\tPseudo = /export/pvc-1;\n\tAccess_Type = RW;\n\tSquash = no_root_squash;\n\tSecType = sys;\n\tFilesystem_id = 1.1;\n\tFSAL {\n\t\tName = VFS;\n\t}\n}" // no newline at the end
	if err := os.WriteFile(conf, []byte(existing), 0o600); err != nil {
		t.Fatal(err)
	}
	out := includeAttrCache(t, conf)
	if !strings.Contains(out, "now includes") {
		t.Errorf("first run said %q", out)
	}
	once := read(t, conf)
	if !strings.HasPrefix(once, existing+"\n") {
		t.Fatalf("the provisioner's config was changed, not appended to:\n%s", once)
	}
	checkIncluded(t, conf)
	out = includeAttrCache(t, conf)
	if !strings.Contains(out, "already includes") || read(t, conf) != once {
		t.Fatalf("second run changed the config (%q):\n%s", out, read(t, conf))
	}
	if got, want := read(t, filepath.Join(filepath.Dir(conf), "osctl-attr-cache.conf")), read(t, filepath.Join(ganeshaDir, "attr-cache.conf")); got != want {
		t.Fatalf("included file differs from the ConfigMap's attr-cache.conf:\n%s", got)
	}
}
