package stress

import (
	"flag"
	"os"
	"strconv"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
)

// parallelWaits is how many of this package's parallel tests run at once unless -test.parallel
// says otherwise: they mostly wait (pauses past a lock's TTL, jobs of seconds, dispatch ticks,
// sandboxes and services starting), and the default, GOMAXPROCS (2 on a 2-core machine), ran
// them two at a time.
const parallelWaits = 4

func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(parallelWaits))
	}
	os.Exit(testenv.RunMain(m))
}
