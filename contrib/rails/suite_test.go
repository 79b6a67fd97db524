package rails_test

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

var minitestSummary = regexp.MustCompile(`(\d+) runs, (\d+) assertions, (\d+) failures, (\d+) errors, (\d+) skips`)

// TestRubySuite runs the module's own API tests (test/osctl_lock_test.rb, minitest) against three
// real redis-server masters: return value, release on every path, holder values, fencing
// tokens, NotAcquired, Lost by Thread#raise and by check!, and OsctlLock::SharedFiles.
func TestRubySuite(t *testing.T) {
	t.Parallel()
	masters := testenv.StartRedisMasters(t, 3)
	out, err := runRuby(t, 3*time.Minute, []string{"OSCTL_TEST_REDIS=" + strings.Join(testenv.URLs(masters), ",")},
		filepath.Join("test", "osctl_lock_test.rb"), "--verbose")
	m := minitestSummary.FindStringSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("minitest: %v\n%s", err, out)
	}
	runs, _ := strconv.Atoi(m[1])
	if runs < 10 || m[3] != "0" || m[4] != "0" || m[5] != "0" {
		t.Fatalf("minitest: %s\n%s", m[0], out)
	}
	t.Logf("redis gem %s: %s", version, m[0])
}
