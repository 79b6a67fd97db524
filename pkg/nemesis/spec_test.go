package nemesis

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	got, err := Parse("pause-replica@10s+8s, kill-replica@5s,restart-redis@20s,pause-redis@1m+500ms")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"kill-replica@5s", "pause-replica@10s+8s", "restart-redis@20s", "pause-redis@1m0s+500ms"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i, f := range got {
		if f.String() != want[i] {
			t.Errorf("fault %d: %s, want %s", i, f, want[i])
		}
	}
	if got[1].For != Duration(8*time.Second) || got[0].At != Duration(5*time.Second) {
		t.Errorf("times: %+v", got[:2])
	}
}

func TestParseRefuses(t *testing.T) {
	for spec, want := range map[string]string{
		"":                         "no fault",
		"kill-replica":             "no @AT",
		"kill-pod@5s":              `unknown kind "kill-pod"; use one of kill-replica, pause-replica, restart-redis, pause-redis`,
		"kill-replica@soon":        `AT "soon" is not a duration`,
		"kill-replica@-1s":         `AT "-1s" is not a duration`,
		"kill-replica@5s+2s":       "takes no +FOR",
		"pause-replica@5s":         "needs +FOR",
		"pause-redis@5s+0s":        `FOR "0s" is not a duration above 0`,
		"pause-redis@5s+1h":        "at most 10m0s",
		"kill-replica@1s,oops@2s":  `unknown kind "oops"`,
		"restart-redis@1s+forever": "takes no +FOR",
	} {
		_, err := Parse(spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", spec, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q): the error is not one line: %q", spec, err)
		}
	}
}

func TestDurationJSON(t *testing.T) {
	var d Duration
	if err := d.UnmarshalText([]byte("8s")); err != nil || d != Duration(8*time.Second) {
		t.Fatalf("%v %v", d, err)
	}
	if b, _ := d.MarshalText(); string(b) != "8s" {
		t.Errorf("MarshalText: %s", b)
	}
}

// TestKindsSayWhatTheyHit: every kind names its target, and pauses or kills, never both.
func TestKindsSayWhatTheyHit(t *testing.T) {
	want := map[Kind]string{
		KillReplica: "replica kills", PauseReplica: "replica pauses", RestartRedis: "redis kills",
		PauseRedis: "redis pauses", PauseHolder: "holder pauses", KillHolder: "holder kills",
	}
	if len(want) != len(Kinds) {
		t.Fatalf("%d kinds, %d expected", len(Kinds), len(want))
	}
	for _, k := range Kinds {
		does := "kills"
		if k.Pauses() {
			does = "pauses"
		}
		if k.Pauses() == k.Kills() {
			t.Errorf("%s: Pauses %v, Kills %v", k, k.Pauses(), k.Kills())
		}
		if got := string(k.Target()) + " " + does; got != want[k] {
			t.Errorf("%s: %s, want %s", k, got, want[k])
		}
		if k.HitsRedis() != (k.Target() == Redis) || k.TargetsHolder() != (k.Target() == Holder) {
			t.Errorf("%s: HitsRedis %v, TargetsHolder %v, Target %s", k, k.HitsRedis(), k.TargetsHolder(), k.Target())
		}
	}
	if k := Kind("kill-pod"); k.Target() != "" || k.Kills() || k.Pauses() {
		t.Errorf("an unknown kind hits %q", k.Target())
	}
}
