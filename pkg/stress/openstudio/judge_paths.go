package openstudio

import "path"

// ignored reports whether p's base name matches one of the ignore globs (detect.DefaultIgnore).
func ignored(p string, ignore []string) bool {
	base := path.Base(p)
	for _, g := range ignore {
		if ok, _ := path.Match(g, base); ok {
			return true
		}
	}
	return false
}

// Storage paths relative to the volume root (docs/architecture.md, the stress contract, 3).
func zipDir(a string) string        { return "server/assets/analyses/" + a }
func zipPath(a, name string) string { return zipDir(a) + "/original/" + name }
func extractDir(a string) string    { return "server/analyses/" + a }
func resultDir(id string) string    { return "server/assets/data_points/" + id }
func resultPath(id, name string) string {
	return resultDir(id) + "/files/original/" + name
}
