package rails_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
)

// inspectReport is the part of `osctl locks inspect -o json` these tests read.
type inspectReport struct {
	Locks []struct {
		Key     string `json:"key"`
		Value   string `json:"value"`
		Flavour string `json:"flavour"`
		Held    int    `json:"held"`
		Masters int    `json:"masters"`
		Holder  *struct {
			Host string `json:"host"`
			PID  int    `json:"pid"`
		} `json:"holder"`
		Verdict struct {
			Status string `json:"status"`
			Rule   string `json:"rule"`
			Reason string `json:"reason"`
		} `json:"verdict"`
	} `json:"locks"`
	Stale int `json:"stale"`
}

func inspectJSON(t *testing.T, urls []string, extra ...string) (inspectReport, int) {
	t.Helper()
	args := append(append([]string{"locks", "inspect", "-o", "json"}, redisFlags(urls)...), extra...)
	out, stderr, code := osctl(t, args...)
	var r inspectReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("osctl locks inspect -o json (exit %d): %v\nstdout: %s\nstderr: %s", code, err, out, stderr)
	}
	return r, code
}

// TestRubyHolderVisibleAndNeverBroken holds a lock with the Ruby module (TTL 5 s, so a renewal
// every 1.7 s) for more than 30 s. All along, `osctl locks inspect` shows it live on 3/3 masters
// with the pod from its holder value, and `osctl locks break --stale --yes` (over the patterns,
// and naming the key) never removes it: the value stays, with a TTL of at most 5 s.
func TestRubyHolderVisibleAndNeverBroken(t *testing.T) {
	t.Parallel()
	const pod = "openstudio-web-7f9c4d8b6-x2x7q"
	testenv.OsctlBinary(t) // built first: the 30 s below are inspect and break rounds, not a build
	masters := testenv.StartRedisMasters(t, 3)
	urls := testenv.URLs(masters)
	key := lock.Key("visible-0b7e", "analysis_zip")
	rb := startDriver(t, "hold", "OSCTL_URLS="+strings.Join(urls, ","), "KEY="+key, "TTL=5", "POD_NAME="+pod, "POD_NAMESPACE=openstudio")
	held := rb.waitFor("held", 30*time.Second)
	value := held.str("value")
	if !strings.HasPrefix(value, "osctl:v1:"+pod+":") {
		t.Fatalf("holder value %q does not name the pod %s", value, pod)
	}
	h, ok := lock.ParseHolder(value)
	if !ok || h.Host != pod || len(h.Random) != 16 || h.Namespace != "openstudio" {
		t.Fatalf("pkg/lock cannot parse the Ruby holder value %q: %+v", value, h)
	}

	ctx := context.Background()
	clients := testenv.Clients(masters)
	start := time.Now()
	rounds := 0
	for time.Since(start) < 31*time.Second {
		r, code := inspectJSON(t, urls)
		if code != 0 || len(r.Locks) != 1 {
			t.Fatalf("inspect: exit %d, %d locks: %+v", code, len(r.Locks), r)
		}
		v := r.Locks[0]
		if v.Key != key || v.Value != value || v.Verdict.Status != "live" || v.Flavour != "osctl" || v.Held != 3 || v.Holder == nil || v.Holder.Host != pod {
			t.Fatalf("inspect after %v shows %+v, want %s live on 3/3 held by pod %s", time.Since(start).Round(time.Second), v, key, pod)
		}
		args := []string{"locks", "break", "--stale", "--yes"}
		if rounds%2 == 1 {
			args = append(args, key)
		}
		out, stderr, code := osctl(t, append(args, redisFlags(urls)...)...)
		if code == 2 {
			t.Fatalf("osctl %v: exit 2\n%s%s", args, out, stderr)
		}
		for i, c := range clients {
			got, err := c.Get(ctx, key).Result()
			if err != nil || got != value {
				t.Fatalf("after `osctl %s` (%v in), master %d holds %q (%v), want the Ruby holder's %q\n%s%s",
					strings.Join(args, " "), time.Since(start).Round(time.Second), i, got, err, value, out, stderr)
			}
			pttl, err := c.PTTL(ctx, key).Result()
			if err != nil || pttl <= 0 || pttl > 5*time.Second {
				t.Fatalf("master %d: PTTL %v (%v), want 0-5s", i, pttl, err)
			}
		}
		rounds++
		time.Sleep(time.Second)
	}
	t.Logf("%d inspect+break rounds over %v: the Ruby lock stayed live and unbroken", rounds, time.Since(start).Round(time.Second))
	if err := rb.stdin.Close(); err != nil {
		t.Fatal(err)
	}
	released := rb.waitFor("released", 20*time.Second)
	if released.num("ticks") == 0 {
		t.Fatal("the block did no work")
	}
	for i, c := range clients {
		if n, err := c.Exists(ctx, key).Result(); err != nil || n != 0 {
			t.Errorf("master %d still has %s after the release (%v)", i, key, err)
		}
	}
}
