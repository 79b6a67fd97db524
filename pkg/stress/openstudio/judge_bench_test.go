package openstudio

import (
	"fmt"
	"testing"

	"github.com/osctl/osctl/pkg/stress/detect"
)

// BenchmarkJudge judges the synthetic state of 1k and 10k analyses (4 uploads, a start, a data
// point and a result file each): the time should grow linearly with the analyses.
func BenchmarkJudge(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		s := buildScenario(b, n, "")
		b.Run(fmt.Sprintf("analyses=%d", n), func(b *testing.B) {
			for b.Loop() {
				j := judgeFiles(s.h, s.st, detect.Options{})
				if len(j.Findings) != 0 {
					b.Fatalf("findings on a clean state: %v", j.Findings[0])
				}
			}
		})
	}
}
