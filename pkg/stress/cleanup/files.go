package cleanup

import (
	"os"
	"path/filepath"
	"sort"

	"github.com/osctl/osctl/pkg/stress/profile"
)

// RunDirs returns the directories of run's objects under the volume root: analysis assets and
// extractions named, whole, with one of the run's analysis or data point ids
// (<run>-000a-4000-8000-...), and result directories all of whose files are the run's result
// files. A directory whose name only starts with the run id (a uuid whose first group it is) is
// someone else's, and is left alone.
func RunDirs(root, run string) ([]string, int, error) {
	dirs := []string{}
	files := 0
	for _, parent := range []string{"server/assets/analyses", "server/analyses"} {
		ents, err := os.ReadDir(filepath.Join(root, parent))
		if err != nil && !os.IsNotExist(err) {
			return nil, 0, err
		}
		for _, e := range ents {
			if e.IsDir() && profile.OwnedBy(e.Name(), run) {
				d := filepath.Join(root, parent, e.Name())
				dirs = append(dirs, d)
				files += countFiles(d)
			}
		}
	}
	rp := filepath.Join(root, "server/assets/data_points")
	ents, err := os.ReadDir(rp)
	if err != nil && !os.IsNotExist(err) {
		return nil, 0, err
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		fs, err := os.ReadDir(filepath.Join(rp, e.Name(), "files", "original"))
		if err != nil || len(fs) == 0 {
			continue
		}
		owned := true
		for _, f := range fs {
			if !profile.IsResultFileOf(f.Name(), run) {
				owned = false
				break
			}
		}
		if owned {
			d := filepath.Join(rp, e.Name())
			dirs = append(dirs, d)
			files += countFiles(d)
		}
	}
	sort.Strings(dirs)
	return dirs, files, nil
}

func countFiles(d string) int {
	n := 0
	_ = filepath.WalkDir(d, func(_ string, de os.DirEntry, err error) error {
		if err == nil && !de.IsDir() {
			n++
		}
		return nil
	})
	return n
}
