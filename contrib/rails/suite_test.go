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

// vendoredRedisRb is redis-rb 4.2.5, the version upstream's image (Ruby 2.7.2) bundles, vendored
// from its tag (third_party/README.md).
var vendoredRedisRb = filepath.Join("..", "..", "third_party", "redis-rb-4.2.5", "lib")

// TestRubySuite runs the module's own API tests (test/osctl_lock_test.rb, minitest) against three
// real redis-server masters: return value, release on every path, holder values, fencing
// tokens, NotAcquired, Lost by Thread#raise and by check!, and OsctlLock::SharedFiles. It runs
// them twice: with Debian's redis gem, and with the vendored redis-rb 4.2.5 first on the load
// path (the gem upstream's image has).
func TestRubySuite(t *testing.T) {
	t.Parallel()
	masters := testenv.StartRedisMasters(t, 3)
	env := []string{"OSCTL_TEST_REDIS=" + strings.Join(testenv.URLs(masters), ",")}
	t.Run("debian", func(t *testing.T) {
		runSuite(t, env, "")
	})
	t.Run("redis-rb-4.2.5", func(t *testing.T) {
		out, err := runRuby(t, time.Minute, nil, "-I", vendoredRedisRb, "-e", `require "redis"; print Redis::VERSION`)
		if err != nil || out != "4.2.5" {
			t.Fatalf("ruby -I %s loads redis %q (%v), want 4.2.5", vendoredRedisRb, out, err)
		}
		runSuite(t, env, "4.2.5", "-I", vendoredRedisRb)
	})
}

// runSuite runs the minitest suite with ruby's extra arguments first and checks its summary; gem
// names the redis gem for the log ("" for the one ruby finds by itself).
func runSuite(t *testing.T, env []string, gem string, rubyArgs ...string) {
	t.Helper()
	args := append(append([]string{}, rubyArgs...), filepath.Join("test", "osctl_lock_test.rb"), "--verbose")
	out, err := runRuby(t, 3*time.Minute, env, args...)
	m := minitestSummary.FindStringSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("minitest: %v\n%s", err, out)
	}
	runs, _ := strconv.Atoi(m[1])
	if runs < 10 || m[3] != "0" || m[4] != "0" || m[5] != "0" {
		t.Fatalf("minitest: %s\n%s", m[0], out)
	}
	if gem == "" {
		gem = "Debian's " + version
	}
	t.Logf("redis gem %s: %s", gem, m[0])
}
