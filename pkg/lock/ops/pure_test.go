package ops

import (
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/lock"
)

func TestMatch(t *testing.T) {
	cases := []struct {
		pat, key string
		want     bool
	}{
		{"redlock:*", "redlock:a:b", true},
		{"redlock:*", "redlock:", true},
		{"redlock:*", "xredlock:a", false},
		{"analysis:*:init_lock", "analysis:123:init_lock", true},
		{"analysis:*:init_lock", "analysis:a:b:init_lock", true},
		{"analysis:*:init_lock", "analysis:123:init_lockx", false},
		{"a/*", "a/b/c", true}, // unlike path.Match, * crosses '/'
		{"h?llo", "hello", true},
		{"h?llo", "hllo", false},
		{"h[ae]llo", "hallo", true},
		{"h[^e]llo", "hello", false},
		{"h[a-c]llo", "hbllo", true},
		{`h\*llo`, "h*llo", true},
		{`h\*llo`, "hello", false},
		{"*", "", true},
		{"**x", "abx", true},
	}
	for _, c := range cases {
		if got := Match(c.pat, c.key); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pat, c.key, got, c.want)
		}
	}
}

func TestFlavourOf(t *testing.T) {
	cases := map[string]Flavour{
		"3f2b1c4e-1a2b-4c3d-8e9f-0123456789ab": FlavourRedlockRb,
		"q83vEjRWeJCrze8SNFZ4kA==":             FlavourRedsync,
		lock.NewHolder("web-1").String():       FlavourOsctl,
		"worker-7":                             FlavourUnknown,
		"3f2b1c4e-1a2b-4c3d-8e9f-0123456789az": FlavourUnknown,
		"q83vEjRWeJCrze8SNFZ4kA=":              FlavourUnknown,
		"":                                     FlavourUnknown,
	}
	for v, want := range cases {
		if got, _ := FlavourOf(v); got != want {
			t.Errorf("FlavourOf(%q) = %s, want %s", v, got, want)
		}
	}
}

func TestParseKey(t *testing.T) {
	for key, want := range map[string][2]string{
		"redlock:abc:extract":       {"abc", "extract"},
		"redlock:a:b:c":             {"a:b", "c"},
		"analysis:123:init_lock":    {"123", "init_lock"},
		"analysis:123":              {"", ""},
		"something:else:entirely:x": {"", ""},
	} {
		id, step := ParseKey(key)
		if id != want[0] || step != want[1] {
			t.Errorf("ParseKey(%q) = %q, %q", key, id, step)
		}
	}
}

// uuidV is a lock value of redlock-rb's shape.
const uuidV = "6f1c1a2e-0000-4000-8000-000000000000"

func view(masters int, hs ...Holding) View {
	v := View{Key: "redlock:x:y", Holdings: hs}
	for len(v.Holdings) < masters {
		v.Holdings = append(v.Holdings, Holding{TTLMillis: Absent})
	}
	v.group()
	return v
}

func TestClassify(t *testing.T) {
	held := func(val string, ttl int64) Holding {
		return Holding{Master: "m", Present: true, Type: "string", Value: val, TTLMillis: ttl}
	}
	down := Holding{Master: "m", TTLMillis: Absent, Error: "down"}
	cases := []struct {
		name string
		v    View
		c    Conditions
		want Status
		rule Rule
	}{
		{"live on 2 of 3", view(3, held("a", 5000), held("a", 5000)), Conditions{}, StatusLive, RuleLive},
		{"no TTL on one", view(3, held(uuidV, 5000), held(uuidV, NoTTL)), Conditions{}, StatusStale, RuleNoTTL},
		{"no TTL, upstream's init lease", View{Key: "analysis:a1:init_lock", Holdings: []Holding{held("resque-web-5d8c7b9f4-q2m4x:41", NoTTL)}, Masters: 1, Held: 1, Type: "string", Value: "resque-web-5d8c7b9f4-q2m4x:41"}, Conditions{}, StatusStale, RuleNoTTL},
		{"no TTL, a worker id under a redlock key", View{Key: "redlock:a1:analysis_zip", Holdings: []Holding{held("resque-web-1:41", NoTTL)}, Masters: 1, Held: 1, Type: "string", Value: "resque-web-1:41"}, Conditions{}, StatusStale, RuleNoTTL},
		{"no TTL, not a worker id under a redlock key", View{Key: "redlock:a1:analysis_zip", Holdings: []Holding{held("forgotten", NoTTL)}, Masters: 1, Held: 1, Type: "string", Value: "forgotten"}, Conditions{}, StatusNotALock, RuleNoTTLUnknownValue},
		{"no TTL, a worker id under another key", View{Key: "session:abc", Holdings: []Holding{held("resque-web-5d8c7b9f4-q2m4x:41", NoTTL)}, Masters: 1, Held: 1, Type: "string", Value: "resque-web-5d8c7b9f4-q2m4x:41"}, Conditions{}, StatusNotALock, RuleNoTTLUnknownValue},
		{"no TTL, no lock's value", view(3, held("a", 5000), held("a", NoTTL)), Conditions{}, StatusNotALock, RuleNoTTLUnknownValue},
		{"no TTL, a lock's value on one only", view(3, held(uuidV, NoTTL), held("a", NoTTL)), Conditions{}, StatusNotALock, RuleNoTTLUnknownValue},
		{"long TTL", view(1, held("a", 120000)), Conditions{}, StatusLongTTL, RuleLongTTL},
		{"long TTL under a custom maximum", view(1, held("a", 120000)), Conditions{MaxTTL: 5 * time.Minute}, StatusLive, RuleLive},
		{"minority first read", view(3, held("a", 5000)), Conditions{}, StatusLive, RuleMinority},
		{"minority confirmed", view(3, held("a", 5000)), Conditions{SecondRead: true, MinorityConfirmed: true}, StatusStale, RuleMinority},
		{"minority value changed", view(3, held("a", 5000)), Conditions{SecondRead: true}, StatusLive, RuleMinority},
		{"1 held + 1 down of 3 may be a quorum", view(3, held("a", 5000), down), Conditions{SecondRead: true, MinorityConfirmed: true}, StatusLive, RuleLive},
		{"split values 1+1 of 3", view(3, held("a", 5000), held("b", 5000)), Conditions{SecondRead: true, MinorityConfirmed: true}, StatusStale, RuleMinority},
		{"holder gone", view(1, held("a", 5000)), Conditions{HolderGone: "web-0 in namespace x"}, StatusStale, RuleHolderGone},
		{"hash", view(1, Holding{Present: true, Type: "hash", TTLMillis: NoTTL}), Conditions{}, StatusNotALock, RuleNotString},
	}
	for _, c := range cases {
		got := Classify(c.v, c.c)
		if got.Status != c.want || got.Rule != c.rule || got.Reason == "" {
			t.Errorf("%s: got %+v, want %s/%s", c.name, got, c.want, c.rule)
		}
	}
	internal := view(1, held("7", NoTTL))
	internal.Key = "osctl:fence:x"
	if got := Classify(internal, Conditions{}); got.Status != StatusNotALock || !strings.Contains(got.Reason, "osctl") {
		t.Errorf("osctl key: %+v", got)
	}
}

func FuzzFlavourOf(f *testing.F) {
	f.Add("3f2b1c4e-1a2b-4c3d-8e9f-0123456789ab")
	f.Add("q83vEjRWeJCrze8SNFZ4kA==")
	f.Add("osctl:v1:web:1:abc")
	f.Fuzz(func(t *testing.T, v string) {
		fl, h := FlavourOf(v)
		if (fl == FlavourOsctl) != (h != nil) {
			t.Fatalf("%q: flavour %s, holder %v", v, fl, h)
		}
		if h != nil && h.String() != v {
			t.Fatalf("%q: holder %q does not round-trip", v, h.String())
		}
	})
}
