package rails_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/redisproc"
)

// TestRubyBadArguments: an empty URL list, a TTL outside 5-30 s and the other invalid arguments
// raise ArgumentError from new, with a message that says what to pass (and masks a password);
// the TTL bounds themselves are accepted.
func TestRubyBadArguments(t *testing.T) {
	t.Parallel()
	evs := driverEvents(t, 30*time.Second, "badargs")
	want := map[string]string{ // case -> a part of the message
		"no urls":           "no Redis URLs given",
		"nil urls":          "no Redis URLs given",
		"ttl 4":             "ttl 4 is outside 5-30 s",
		"ttl 4.99":          "ttl 4.99 is outside 5-30 s",
		"ttl 31":            "ttl 31 is outside 5-30 s",
		`ttl "10"`:          "is not a number of seconds",
		"retry_count 0":     "retry_count 0 must be an integer",
		"not a url":         "http://:xxxxx@example.com is not a Redis URL",
		"same master twice": "is given twice",
	}
	seen := map[string]bool{}
	for _, e := range evs {
		name := e.str("case")
		seen[name] = true
		msg := e.str("message")
		if strings.Contains(msg, "pw-in-url") {
			t.Errorf("%s: the message shows the password: %q", name, msg)
		}
		part, bad := want[name]
		switch {
		case !bad && e["raised"] != nil:
			t.Errorf("%s: raised %v: %s, want it accepted", name, e["raised"], msg)
		case bad && e.str("raised") != "ArgumentError":
			t.Errorf("%s: raised %v, want ArgumentError", name, e["raised"])
		case bad && !strings.Contains(msg, part):
			t.Errorf("%s: message %q does not say %q", name, msg, part)
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("case %q did not run", name)
		}
	}
	for _, ok := range []string{"ttl 5", "ttl 30"} {
		if !seen[ok] {
			t.Errorf("case %q did not run", ok)
		}
	}
}

// TestRubyUnreachableMasters: masters that refuse connections, or accept them and never answer,
// make synchronize raise NotAcquired within a few seconds, naming each master with its password
// masked; it never hangs. One master down out of three is no reason to fail.
func TestRubyUnreachableMasters(t *testing.T) {
	t.Parallel()
	const password = "s3cret-pw-9f2c"
	closedPort := func() int {
		p, err := redisproc.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	paused := testenv.StartRedis(t, testenv.WithPassword(password))
	if err := paused.Client().Do(context.Background(), "CLIENT", "PAUSE", "60000", "ALL").Err(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = paused.Client().Do(context.Background(), "CLIENT", "UNPAUSE").Err() })
	live := testenv.StartRedisMasters(t, 2)

	refused := fmt.Sprintf("redis://:%s@127.0.0.1:%d", password, closedPort())
	cases := []struct {
		name    string
		urls    []string
		held    bool
		masters []string // what the message must name
	}{
		{"refused", []string{refused}, false, []string{fmt.Sprintf("master #0 redis://:xxxxx@127.0.0.1:%s", portOf(refused))}},
		{"never answers", []string{paused.URL()}, false, []string{"master #0 redis://:xxxxx@" + paused.Addr}},
		{"two of three refused", []string{refused, fmt.Sprintf("redis://127.0.0.1:%d", closedPort()), live[0].URL()}, false, []string{"master #0", "master #1"}},
		{"one of three refused", []string{refused, live[0].URL(), live[1].URL()}, true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := driverEvents(t, 60*time.Second, "unreachable", "OSCTL_URLS="+strings.Join(c.urls, ","))[0]
			all := fmt.Sprint(e)
			if strings.Contains(all, password) {
				t.Errorf("the password is shown: %s", all)
			}
			if c.held {
				if e.str("event") != "held" {
					t.Fatalf("got %v, want the lock held on 2 of 3 masters", e)
				}
				return
			}
			if e.str("event") != "failed" || e.str("class") != "OsctlLock::NotAcquired" {
				t.Fatalf("got %v, want OsctlLock::NotAcquired", e)
			}
			secs, _ := e["seconds"].(float64)
			t.Logf("%s: NotAcquired after %.2fs: %s", c.name, secs, e.str("message"))
			// "A few seconds": UNREACHABLE_TRIES short tries; the bound leaves room for a loaded machine.
			if secs > 10 {
				t.Errorf("NotAcquired only after %.1fs, want a few seconds", secs)
			}
			for _, m := range c.masters {
				if !strings.Contains(e.str("message"), m) {
					t.Errorf("message %q does not name %q", e.str("message"), m)
				}
			}
			if !strings.Contains(e.str("inspect"), "xxxxx") && strings.Contains(strings.Join(c.urls, ","), "@") {
				t.Errorf("inspect %q does not mask the password", e.str("inspect"))
			}
		})
	}
}

func portOf(url string) string {
	i := strings.LastIndexByte(url, ':')
	return url[i+1:]
}
