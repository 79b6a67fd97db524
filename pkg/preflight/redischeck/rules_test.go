package redischeck_test

import (
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/redischeck"
)

// Pure rule tests on constructed facts (no I/O, no clocks).

func samples(rate float64, jumpAt int, jump time.Duration) []redischeck.ClockSample {
	base := time.Unix(1_700_000_000, 0)
	var out []redischeck.ClockSample
	var extra time.Duration
	for i := 0; i < 6; i++ {
		local := time.Duration(i) * 200 * time.Millisecond
		if i == jumpAt {
			extra += jump
		}
		out = append(out, redischeck.ClockSample{Local: local, RTT: 200 * time.Microsecond,
			Server: base.Add(time.Duration(float64(local)*rate) + extra)})
	}
	return out
}

func clockFacts(s []redischeck.ClockSample) []redischeck.Facts {
	return []redischeck.Facts{{Name: "m", RTTs: []time.Duration{time.Millisecond}, Info: map[string]string{"role": "master"},
		Config: map[string]string{"maxmemory": "0", "appendonly": "yes", "appendfsync": "always"}, Clock: s}}
}

func TestClockRules(t *testing.T) {
	cases := []struct {
		name string
		s    []redischeck.ClockSample
		want preflight.Status
		text string
	}{
		{"steady", samples(1, -1, 0), preflight.Pass, "rate 1.00000"},
		{"2% fast", samples(1.02, -1, 0), preflight.Fail, "drift allowance"},
		{"0.5% slow", samples(0.995, -1, 0), preflight.Warn, "more than 0.1%"},
		{"step forward", samples(1, 3, 2*time.Second), preflight.Warn, "jumped"},
		{"step back", samples(1, 2, -time.Second), preflight.Warn, "jumped"},
	}
	for _, c := range cases {
		rs := redischeck.Rules(clockFacts(c.s), redischeck.Options{})
		for _, r := range rs {
			if r.ID == redischeck.RuleClock && (r.Status != c.want || !strings.Contains(r.Message, c.text)) {
				t.Errorf("%s: %s %q, want %s with %q", c.name, r.Status, r.Message, c.want, c.text)
			}
		}
	}
}

func TestRTTRule(t *testing.T) {
	for _, c := range []struct {
		rtt  time.Duration
		want preflight.Status
	}{{time.Millisecond, preflight.Pass}, {400 * time.Millisecond, preflight.Warn}, {2 * time.Second, preflight.Fail}} {
		f := clockFacts(samples(1, -1, 0))
		f = append(f, f[0], f[0])
		for i := range f {
			f[i].RTTs = []time.Duration{c.rtt}
		}
		rs := redischeck.Rules(f, redischeck.Options{LockTTL: 10 * time.Second})
		for _, r := range rs {
			if r.ID == redischeck.RuleRTT && r.Status != c.want {
				t.Errorf("rtt %v: %s %s, want %s", c.rtt, r.Status, r.Message, c.want)
			}
		}
	}
}
