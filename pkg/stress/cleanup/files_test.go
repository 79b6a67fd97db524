package cleanup

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv/cleanupenv"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// TestRunMatchesWholeIDs: --run 7c0f5a2e removes the run's own directories and leaves alone a
// uuid-named analysis whose first group is the run id, a result directory that holds another
// file, and anything else.
func TestRunMatchesWholeIDs(t *testing.T) {
	const r = "7c0f5a2e"
	root := t.TempDir()
	ownA := profile.AnalysisID(r, 1)
	foreignA := "7c0f5a2e-3c1d-4b8e-9a51-0d6f2b7e9c11"
	cleanupenv.Mkdirs(t, root,
		"server/analyses/"+ownA+"/seed.zip", "server/assets/analyses/"+ownA+"/original/"+profile.ZipName(r),
		"server/analyses/"+foreignA+"/seed.zip", "server/assets/analyses/"+foreignA+"/original/x.zip",
		"server/analyses/7c0f5a2e-000a-4000-8000-00000000000/short",
		"server/assets/data_points/dp1/files/original/"+profile.ResultName(r, 3),
		"server/assets/data_points/dp2/files/original/"+profile.ResultName(r, 4),
		"server/assets/data_points/dp2/files/original/report.json",
		"server/assets/data_points/dp3/files/original/osctl-7c0f5a2e-notes.json")
	plan, err := Files(root, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "server/analyses", ownA), filepath.Join(root, "server/assets/analyses", ownA), filepath.Join(root, "server/assets/data_points/dp1")}
	if strings.Join(plan.Removed, ",") != strings.Join(want, ",") || plan.Files != 3 {
		t.Fatalf("planned %v (%d files), want %v", plan.Removed, plan.Files, want)
	}
	if q := plan.Question(); !strings.Contains(q, "Remove 3 directories (3 files) of stress run 7c0f5a2e under "+root) {
		t.Errorf("question: %s", q)
	}
	res, err := plan.Apply(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Lines(); got[len(got)-1] != "run 7c0f5a2e: removed 3 directories (3 files)" {
		t.Errorf("lines: %v", got)
	}
	for _, d := range want {
		if cleanupenv.Exists(d) {
			t.Errorf("%s is still there", d)
		}
	}
	for _, d := range []string{"server/analyses/" + foreignA, "server/assets/analyses/" + foreignA, "server/analyses/7c0f5a2e-000a-4000-8000-00000000000",
		"server/assets/data_points/dp2", "server/assets/data_points/dp3"} {
		if !cleanupenv.Exists(filepath.Join(root, d)) {
			t.Errorf("%s, not the run's, was removed", d)
		}
	}
	for _, bad := range []string{"7c0f5a2", "7c0f5a2e-3c1d", "", "../x"} {
		if _, err := Files(root, bad); err == nil {
			t.Errorf("run %q accepted", bad)
		}
	}
	if _, err := Files(filepath.Join(root, "none"), r); err == nil {
		t.Error("a missing state dir accepted")
	}
}
