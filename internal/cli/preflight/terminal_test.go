package preflight

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

// TestManifestsFitATerminal: `osctl preflight manifests -f examples/chart-today/` on a terminal of
// 120 columns prints nothing wider (the long messages cut with an ellipsis, the fixes wrapped
// under the table), and piped prints every row and fix whole, as does -o wide on the terminal.
func TestManifestsFitATerminal(t *testing.T) {
	t.Parallel()
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"preflight", "manifests", "-f", filepath.Join("examples", "chart-today")}
	tty, code := testenv.RunTerminal(t, 120, time.Minute, root, args...)
	if code != 1 {
		t.Fatalf("exit %d on a terminal, want 1 (FAIL):\n%s", code, tty)
	}
	if bad := testenv.TooWide(tty, 120); len(bad) > 0 {
		t.Fatalf("%d lines wider than 120 columns, the first: %q\n%s", len(bad), bad[0], tty)
	}
	cmd := exec.Command(testenv.OsctlBinary(t), args...)
	cmd.Dir = root
	piped, _ := cmd.Output()
	pipe := string(piped)
	// The whole message of the StorageClass rule and its whole fix, each on one line.
	for _, want := range []string{
		"StorageClass nfs (claim nfs-pvc) mounts without noac (mountOptions: vers=4,sync) and ",
		"  nfs.storageclass (storageclass/nfs): add noac to the StorageClass mountOptions (for the chart: nfs-server-provisioner.storageClass.mountOptions); existing PVs keep their options: patch them too\n",
	} {
		if !strings.Contains(pipe, want) {
			t.Errorf("piped output lacks %q:\n%s", want, pipe)
		}
		if strings.Contains(tty, strings.TrimSpace(want)) {
			t.Errorf("the terminal got %q on one line, wider than 120 columns", want)
		}
	}
	if strings.Contains(pipe, "…") || !strings.Contains(tty, "…") {
		t.Errorf("want cut cells on the terminal only")
	}
	if len(testenv.TooWide(pipe, 120)) == 0 {
		t.Errorf("piped output fits 120 columns: nothing shows the rows are whole")
	}
	// The fix is all there on the terminal too, wrapped.
	words := strings.Fields("add noac to the StorageClass mountOptions (for the chart: nfs-server-provisioner.storageClass.mountOptions); existing PVs keep their options: patch them too")
	if !strings.Contains(strings.Join(strings.Fields(tty), " "), strings.Join(words, " ")) {
		t.Errorf("the wrapped fix lost words:\n%s", tty)
	}
	wide, _ := testenv.RunTerminal(t, 120, time.Minute, root, append(args, "-o", "wide")...)
	if strings.Contains(wide, "…") || !strings.Contains(wide, "mounts without noac (mountOptions: vers=4,sync) and ") {
		t.Errorf("-o wide cut the table:\n%s", wide)
	}
}
