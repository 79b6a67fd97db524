package ops

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-redsync/redsync/v4"

	"github.com/osctl/osctl/pkg/lock"
)

func TestInspectFlavoursOnOneAndThreeMasters(t *testing.T) {
	for _, n := range []int{1, 3} {
		t.Run(map[int]string{1: "one", 3: "three"}[n], func(t *testing.T) {
			ctx := context.Background()
			_, ms := startMasters(t, n)
			mu := redsyncLock(t, ms, "redlock:a1:extract", redsync.WithExpiry(8*time.Second))
			rb := redlockRbLock(t, ms, "redlock:a2:upload", 10000)
			holder := lock.NewHolder("web-0").String()
			for _, m := range ms {
				must(t, m.Client.SetNX(ctx, "analysis:a3:init_lock", "worker-7", 120*time.Second).Err())
				must(t, m.Client.SetNX(ctx, "redlock:a4:zip", holder, 9*time.Second).Err())
				must(t, m.Client.Set(ctx, "redlock:a5:zip", "6f1c1a2e-0000-4000-8000-00000000000a", 0).Err())
				must(t, m.Client.Set(ctx, "redlock:a7:session", "forgotten", 0).Err())
				must(t, m.Client.HSet(ctx, "redlock:a6:meta", "f", "v").Err())
				must(t, m.Client.Set(ctx, "osctl:fence:x", "7", 0).Err())
				must(t, m.Client.Set(ctx, "resque:queue", "x", 0).Err())
			}
			got, sum := inspectAll(t, ms, Options{})
			if len(got) != 7 || sum.Keys != 7 {
				t.Fatalf("want 7 keys (osctl: and resque: keys not scanned by default), got %d: %v", len(got), keys(got))
			}
			want := map[string]struct {
				flavour Flavour
				status  Status
				rule    Rule
			}{
				"redlock:a1:extract":    {FlavourRedsync, StatusLive, RuleLive},
				"redlock:a2:upload":     {FlavourRedlockRb, StatusLive, RuleLive},
				"analysis:a3:init_lock": {FlavourUnknown, StatusLongTTL, RuleLongTTL},
				"redlock:a4:zip":        {FlavourOsctl, StatusLive, RuleLive},
				"redlock:a5:zip":        {FlavourRedlockRb, StatusStale, RuleNoTTL},
				"redlock:a7:session":    {FlavourUnknown, StatusNotALock, RuleNoTTLUnknownValue},
				"redlock:a6:meta":       {"", StatusNotALock, RuleNotString},
			}
			for k, w := range want {
				v := got[k]
				if v.Flavour != w.flavour || v.Verdict.Status != w.status || v.Verdict.Rule != w.rule {
					t.Errorf("%s: got flavour %q verdict %+v, want %q %s/%s", k, v.Flavour, v.Verdict, w.flavour, w.status, w.rule)
				}
				if len(v.Holdings) != n || v.Masters != n {
					t.Errorf("%s: %d holdings for %d masters", k, len(v.Holdings), n)
				}
			}
			if v := got["redlock:a1:extract"]; v.Value != mu.Value() || v.Held != n || !v.Quorum || v.AnalysisID != "a1" || v.Step != "extract" {
				t.Errorf("redsync view: %+v", v)
			}
			if v := got["redlock:a2:upload"]; v.Value != rb || v.Holdings[0].TTLMillis <= 0 || v.Holdings[0].TTLMillis > 10000 {
				t.Errorf("redlock-rb view: %+v", v)
			}
			if v := got["analysis:a3:init_lock"]; v.AnalysisID != "a3" || v.Step != "init_lock" {
				t.Errorf("init_lock parsed as %q/%q", v.AnalysisID, v.Step)
			}
			if v := got["redlock:a4:zip"]; v.Holder == nil || v.Holder.Host != "web-0" {
				t.Errorf("osctl holder not parsed: %+v", v.Holder)
			}
			if v := got["redlock:a6:meta"]; v.Type != "hash" || v.Value != "" {
				t.Errorf("hash view: %+v", v)
			}
			if sum.Stale != 1 {
				t.Errorf("stale = %d, want 1", sum.Stale)
			}
			// The osctl: key is never a lock, even when asked for.
			got, _ = inspectAll(t, ms, Options{Patterns: []string{"osctl:*"}})
			if v := got["osctl:fence:x"]; v.Verdict.Status != StatusNotALock || v.Verdict.Rule != RuleInternal {
				t.Errorf("osctl: key: %+v", v.Verdict)
			}
		})
	}
}

func TestInspectOneMasterDown(t *testing.T) {
	ctx := context.Background()
	rs, ms := startMasters(t, 3)
	mu := redsyncLock(t, ms, "redlock:b1:extract", redsync.WithExpiry(8*time.Second))
	for _, m := range ms {
		must(t, m.Client.Set(ctx, "redlock:b2:zip", "q83vEjRWeJCrze8SNFZ4kA==", 0).Err())
	}
	rs[1].Kill()
	got, sum := inspectAll(t, ms, Options{RetryWindow: 10 * time.Millisecond})
	if sum.Down() != 1 || sum.Masters[1].Error == "" || sum.Masters[0].Error != "" {
		t.Fatalf("masters: %+v", sum.Masters)
	}
	v := got["redlock:b1:extract"]
	if v.Value != mu.Value() || v.Held != 2 || !v.Quorum || v.Verdict.Status != StatusLive {
		t.Errorf("redsync lock with one master down: %+v", v)
	}
	if v.Holdings[1].Error == "" || v.Holdings[1].Present {
		t.Errorf("down master's holding: %+v", v.Holdings[1])
	}
	if got["redlock:b2:zip"].Verdict.Rule != RuleNoTTL {
		t.Errorf("no-TTL lock with a master down: %+v", got["redlock:b2:zip"].Verdict)
	}
	// All down: Inspect fails with one line naming the master.
	rs[0].Kill()
	rs[2].Kill()
	_, err := Inspect(ctx, ms, Options{}, func(View) error { return nil })
	if _, ok := err.(*NoMasterError); !ok || strings.Contains(err.Error(), "\n") {
		t.Fatalf("all down: %v", err)
	}
}

func TestInspectKeysOnlyOnLaterMastersAndManyBatches(t *testing.T) {
	ctx := context.Background()
	_, ms := startMasters(t, 3)
	// 2500 keys on master 0 and 1; 300 only on master 2; one key per pattern overlap.
	for i := 0; i < 2500; i++ {
		k := "redlock:many:" + strconv.Itoa(i)
		must(t, ms[0].Client.Set(ctx, k, "v", 9*time.Second).Err())
		must(t, ms[1].Client.Set(ctx, k, "v", 9*time.Second).Err())
	}
	for i := 0; i < 300; i++ {
		must(t, ms[2].Client.Set(ctx, "redlock:late:"+strconv.Itoa(i), "v", 9*time.Second).Err())
	}
	got, sum := inspectAll(t, ms, Options{Batch: 100, Patterns: []string{"redlock:*", "redlock:many:*"}, RetryWindow: 10 * time.Millisecond})
	if len(got) != 2800 || sum.Keys != 2800 {
		t.Fatalf("got %d keys, want 2800", len(got))
	}
	if v := got["redlock:late:7"]; v.Held != 1 || v.Verdict.Status != StatusStale || v.Verdict.Rule != RuleMinority {
		t.Errorf("key only on master 2 (1 of 3, twice): %+v", v.Verdict)
	}
	if v := got["redlock:many:7"]; v.Held != 2 || !v.Quorum || v.Verdict.Status != StatusLive {
		t.Errorf("key on 2 of 3: %+v", v)
	}
}

func TestMinoritySecondRead(t *testing.T) {
	ctx := context.Background()
	_, ms := startMasters(t, 3)
	must(t, ms[0].Client.Set(ctx, "redlock:m:inprogress", "A", 9*time.Second).Err())
	must(t, ms[0].Client.Set(ctx, "redlock:m:debris", "B", 9*time.Second).Err())
	must(t, ms[0].Client.Set(ctx, "redlock:m:changed", "C", 9*time.Second).Err())
	must(t, ms[0].Client.Set(ctx, "redlock:m:released", "D", 9*time.Second).Err())
	for _, m := range ms {
		must(t, m.Client.Set(ctx, "redlock:m:marker", "M", 9*time.Second).Err())
	}
	got := map[string]View{}
	// Batch 1 reads the keys in order: the four minority keys wait for a second read, and the
	// marker (read after them) is emitted at once. While it is emitted the in-progress
	// acquisition completes, another acquisition replaces a value, and one holder releases:
	// all within the retry window.
	_, err := Inspect(ctx, ms, Options{Batch: 1, RetryWindow: 100 * time.Millisecond,
		Keys: []string{"redlock:m:inprogress", "redlock:m:debris", "redlock:m:changed", "redlock:m:released", "redlock:m:marker"}},
		func(v View) error {
			if v.Key == "redlock:m:marker" {
				if len(got) != 0 {
					t.Errorf("minority keys emitted before their second read: %v", keys(got))
				}
				for _, m := range ms[1:] {
					must(t, m.Client.Set(ctx, "redlock:m:inprogress", "A", 9*time.Second).Err())
				}
				must(t, ms[0].Client.Set(ctx, "redlock:m:changed", "C2", 9*time.Second).Err())
				must(t, ms[0].Client.Del(ctx, "redlock:m:released").Err())
			}
			got[v.Key] = v
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if v := got["redlock:m:inprogress"]; v.Verdict.Status != StatusLive || v.Held != 3 {
		t.Errorf("acquisition completed within the window is %+v, want live on 3", v.Verdict)
	}
	if v := got["redlock:m:debris"]; v.Verdict.Status != StatusStale || v.Verdict.Rule != RuleMinority {
		t.Errorf("debris: %+v", v.Verdict)
	}
	if v := got["redlock:m:changed"]; v.Verdict.Status != StatusLive || v.Value != "C2" {
		t.Errorf("value changed between reads: %+v", v.Verdict)
	}
	if _, ok := got["redlock:m:released"]; ok {
		t.Errorf("a key released before the second read was shown")
	}
}

func TestMinorityWithUnreachableMasterIsNotStale(t *testing.T) {
	ctx := context.Background()
	rs, ms := startMasters(t, 3)
	must(t, ms[0].Client.Set(ctx, "redlock:u:x", "A", 9*time.Second).Err())
	rs[2].Kill()
	// 1 holder + 1 unreachable = 2 = quorum: the down master may hold it too.
	got, _ := inspectAll(t, ms, Options{RetryWindow: 10 * time.Millisecond})
	if v := got["redlock:u:x"]; v.Verdict.Status != StatusLive || !strings.Contains(v.Verdict.Reason, "unreachable") {
		t.Errorf("got %+v", v.Verdict)
	}
}

func keys(m map[string]View) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
