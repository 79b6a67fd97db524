package detect

import (
	"slices"
	"testing"

	"github.com/osctl/osctl/pkg/stress/history"
)

// TestProfilesNameTheJudgesKinds: history's profiles (history cannot import detect's constants)
// list exactly the finding kinds this package gives for each profile, the JUnit cases of a run.
func TestProfilesNameTheJudgesKinds(t *testing.T) {
	for p, want := range map[string][]string{
		history.OpenStudio.Name: {Lost, Duplicate, Torn, Mixed, Phantom, FailedExtraction},
		history.Jobs.Name:       {Ceiling, Stranded, Invisible, Lost},
		history.HTTP.Name:       nil,
	} {
		if got := history.KindOf(p).Findings; !slices.Equal(got, want) {
			t.Errorf("profile %s lists finding kinds %v, want %v", p, got, want)
		}
	}
}
