package rails_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/lock"
)

// rubyModule is the Ruby lock module whose constants copy pkg/lock's defaults.
const rubyModule = "osctl_lock.rb"

// defaultClaim is one way the docs (or the Ruby module's comments) state one of pkg/lock's
// defaults: every match of re anywhere must capture want in each group, and each file in mustIn
// must have at least one match, so that rewording a sentence fails here instead of leaving a copy
// unchecked.
type defaultClaim struct {
	what   string
	re     *regexp.Regexp
	want   []string
	mustIn []string
}

func secs(d interface{ Seconds() float64 }) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

func lockDefaultClaims() []defaultClaim {
	ttl, lo, hi := secs(lock.DefaultTTL), secs(lock.MinTTL), secs(lock.MaxTTL)
	tries, div := strconv.Itoa(lock.DefaultTries), strconv.Itoa(lock.RenewDivisor)
	drift := strconv.FormatFloat(lock.DriftFactor, 'f', -1, 64)
	driftMin := strconv.FormatInt(lock.DriftMin.Milliseconds(), 10)
	rails, contract, locking := "docs/migration/rails.md", "docs/migration/rails-lock-contract.md", "docs/locking.md"
	return []defaultClaim{
		{"TTL range (lock.MinTTL-lock.MaxTTL)", regexp.MustCompile(`TTL (?:must be |outside |between )?(\d+)(?:-| and )(\d+) s\b`),
			[]string{lo, hi}, []string{rails, contract, locking, rubyModule}},
		{"default TTL (lock.DefaultTTL)", regexp.MustCompile(`TTL (\d+) s\b`), []string{ttl}, []string{rails, locking, rubyModule}},
		{"default TTL (lock.DefaultTTL)", regexp.MustCompile(`TTL [^;\n]{0,60}?default (\d+) s\b`), []string{ttl}, []string{rails, locking}},
		{"default TTL (lock.DefaultTTL)", regexp.MustCompile(`(\d+) s is the default of`), []string{ttl}, []string{contract}},
		{"sandbox's default TTL (sandbox.DefaultLockTTL = lock.DefaultTTL)", regexp.MustCompile(`sandbox's default is (\d+) s\b`),
			[]string{ttl}, []string{"docs/stress-nemesis.md"}},
		{"maximum TTL (lock.MaxTTL)", regexp.MustCompile(`above the (\d+) ?s maximum`), []string{hi}, []string{"docs/migration/incident-locks.md"}},
		{"tries (lock.DefaultTries)", regexp.MustCompile(`retry_count: (\d+), retry_delay`), []string{tries}, []string{rails, contract}},
		{"tries (lock.DefaultTries)", regexp.MustCompile(`retries \((\d+) tries`), []string{tries}, []string{locking}},
		{"renewal (TTL/lock.RenewDivisor)", regexp.MustCompile("every `?TTL/(\\d+)\\b"), []string{div},
			[]string{rails, contract, locking, "docs/architecture.md", rubyModule}},
		{"renewal (TTL/lock.RenewDivisor)", regexp.MustCompile(`\(TTL/(\d+) later\)`), []string{div}, []string{rails}},
		{"clock drift (lock.DriftFactor)", regexp.MustCompile(`ttl ?\* ?(0\.\d+)`), []string{drift}, []string{rails, rubyModule}},
		{"TTL range (lock.MinTTL-lock.MaxTTL)", regexp.MustCompile(`time to live in seconds, (\d+)-(\d+)\b`), []string{lo, hi}, []string{rubyModule}},
		{"drift minimum (lock.DriftMin)", regexp.MustCompile(`ttl ?\* ?0\.\d+ ?\+ ?(\d+) ms`), []string{driftMin}, []string{rails}},
		{"drift minimum (lock.DriftMin)", regexp.MustCompile(`redlock-rb's (\d+) ms`), []string{driftMin}, []string{rubyModule}},
		{"drift minimum (lock.DriftMin)", regexp.MustCompile(`drift \d+% of the TTL plus (\d+) ms`), []string{driftMin}, []string{locking}},
		{"clock drift (lock.DriftFactor)", regexp.MustCompile(`drift (\d+)% of the TTL`), []string{strconv.FormatFloat(lock.DriftFactor*100, 'f', -1, 64)}, []string{locking}},
	}
}

// claimFiles are the files whose stated lock defaults are checked: the module, the README and
// every document under docs/ (paths relative to the repository root).
func claimFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{rubyModule: readFile(t, rubyModule), "README.md": readFile(t, "../../README.md")}
	err := filepath.WalkDir("../../docs", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		files[filepath.ToSlash(strings.TrimPrefix(p, "../../"))] = readFile(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLockDefaultsMatchPkgLock checks the copies of pkg/lock's defaults that Go cannot share:
// the Ruby module's constants (and that its code uses them) and every default the docs state.
func TestLockDefaultsMatchPkgLock(t *testing.T) {
	t.Parallel()
	rb := readFile(t, rubyModule)
	consts := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^  ([A-Z_]+) = ([0-9.]+)$`).FindAllStringSubmatch(rb, -1) {
		consts[m[1]] = m[2]
	}
	for name, want := range map[string]float64{"MIN_TTL": lock.MinTTL.Seconds(), "MAX_TTL": lock.MaxTTL.Seconds(),
		"DEFAULT_TTL": lock.DefaultTTL.Seconds(), "DEFAULT_RETRY_COUNT": lock.DefaultTries,
		"RENEW_DIVISOR": lock.RenewDivisor, "DRIFT_FACTOR": lock.DriftFactor, "DRIFT_MIN": lock.DriftMin.Seconds()} {
		got, err := strconv.ParseFloat(consts[name], 64)
		if err != nil || got != want {
			t.Errorf("%s: OsctlLock::%s = %q, want %v (pkg/lock)", rubyModule, name, consts[name], want)
		}
	}
	for _, use := range []string{"ttl: DEFAULT_TTL, retry_count: DEFAULT_RETRY_COUNT,", "@renew_every = @ttl / RENEW_DIVISOR\n", "@drift = @ttl * DRIFT_FACTOR + DRIFT_MIN\n"} {
		if !strings.Contains(rb, use) {
			t.Errorf("%s no longer has %q: its defaults would not come from its checked constants", rubyModule, strings.TrimSpace(use))
		}
	}
	files := claimFiles(t)
	for _, c := range lockDefaultClaims() {
		for _, name := range c.mustIn {
			if _, ok := files[name]; !ok {
				t.Errorf("%s, where the %s must be stated, is not among the files read: moved or renamed? update the claim", name, c.what)
			}
		}
		for name, text := range files {
			ms := c.re.FindAllStringSubmatch(text, -1)
			if len(ms) == 0 && slices.Contains(c.mustIn, name) {
				t.Errorf("%s no longer states the %s in a form this test reads (%s): update the claim", name, c.what, c.re)
			}
			for _, m := range ms {
				if !slices.Equal(m[1:], c.want) {
					t.Errorf("%s: %q states the %s as %v, pkg/lock has %v", name, m[0], c.what, m[1:], c.want)
				}
			}
		}
	}
}

// TestRailsGuideSignatureMatchesModule checks that the API line of docs/migration/rails.md
// shows OsctlLock.new's defaults as the module has them (its retry_delay too, which is
// redlock-rb's and not pkg/lock's).
func TestRailsGuideSignatureMatchesModule(t *testing.T) {
	t.Parallel()
	rb := readFile(t, rubyModule)
	m := regexp.MustCompile(`def initialize\((urls:, ttl: .*)\)\n`).FindStringSubmatch(rb)
	if m == nil {
		t.Fatalf("%s: no `def initialize(urls:, ttl: ...)` line", rubyModule)
	}
	sig := m[1]
	for name, v := range map[string]string{"DEFAULT_TTL": secs(lock.DefaultTTL), "DEFAULT_RETRY_COUNT": strconv.Itoa(lock.DefaultTries)} {
		sig = strings.ReplaceAll(sig, ": "+name+",", ": "+v+",")
	}
	if want := "OsctlLock.new(" + sig + ")\n"; !strings.Contains(readFile(t, railsDoc), want) {
		t.Errorf("%s does not show the module's signature %q", strings.TrimPrefix(railsDoc, "../../"), strings.TrimSpace(want))
	}
}
