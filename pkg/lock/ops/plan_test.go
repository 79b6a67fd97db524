package ops

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestPlanBreakDecidesEachLock: the plan a break follows, from one read of a real master:
// stale locks are broken, live ones and keys that are not locks are refused with a reason that
// names the request's settings, named keys on no master are missing, and nothing is changed.
func TestPlanBreakDecidesEachLock(t *testing.T) {
	ctx := context.Background()
	_, ms := startMasters(t, 1)
	c := ms[0].Client
	must(t, c.Set(ctx, "redlock:p:stale", lockV1, 0).Err())
	must(t, c.Set(ctx, "redlock:p:live", lockV2, 30*time.Second).Err())
	must(t, c.HSet(ctx, "redlock:p:hash", "f", "v").Err())
	now := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
	named := []string{"redlock:p:stale", "redlock:p:live", "redlock:p:hash", "redlock:p:none", "redlock:p:stale"}

	plan, err := PlanBreak(ctx, ms, Options{RetryWindow: time.Second}, BreakRequest{Keys: named, Who: "sre"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Break) != 1 || plan.Break[0].Key != "redlock:p:stale" {
		t.Fatalf("break %+v, want only the stale lock", plan.Break)
	}
	if len(plan.Missing) != 1 || plan.Missing[0] != "redlock:p:none" || plan.AskedStale {
		t.Fatalf("missing %v asked-stale %v", plan.Missing, plan.AskedStale)
	}
	reasons := map[string]string{}
	for _, r := range plan.Refused {
		if r.Outcome != OutcomeRefused || r.Who != "sre" || !r.When.Equal(now) {
			t.Errorf("refusal record %+v", r)
		}
		reasons[r.Key] = r.Reason
	}
	if !strings.Contains(reasons["redlock:p:live"], "use {Force} to break it anyway") {
		t.Errorf("live lock: %q, want the {Force} remedy", reasons["redlock:p:live"])
	}
	if !strings.HasPrefix(reasons["redlock:p:hash"], "not a lock: ") {
		t.Errorf("hash: %q", reasons["redlock:p:hash"])
	}

	// Force breaks the live lock it names, never the key that is not a lock.
	plan, err = PlanBreak(ctx, ms, Options{RetryWindow: time.Second}, BreakRequest{Keys: named, Force: true}, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Break) != 2 || len(plan.Refused) != 1 || plan.Refused[0].Key != "redlock:p:hash" {
		t.Fatalf("forced: break %d refused %+v", len(plan.Break), plan.Refused)
	}
	// Stale with names: only the stale one, the live one refused for {Stale}.
	plan, err = PlanBreak(ctx, ms, Options{RetryWindow: time.Second}, BreakRequest{Keys: named[:2], Stale: true}, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Break) != 1 || len(plan.Refused) != 1 || !strings.Contains(plan.Refused[0].Reason, "{Stale} breaks only stale locks") {
		t.Fatalf("stale with names: break %d refused %+v", len(plan.Break), plan.Refused)
	}
	// No names: every stale lock of the patterns, nothing refused.
	plan, err = PlanBreak(ctx, ms, Options{Patterns: []string{"redlock:p:*"}, RetryWindow: time.Second}, BreakRequest{Stale: true}, now)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.AskedStale || len(plan.Break) != 1 || len(plan.Refused) != 0 {
		t.Fatalf("patterns: %+v", plan)
	}
	// Planning changed nothing.
	if n, _ := c.Exists(ctx, "redlock:p:stale", "redlock:p:live", "redlock:p:hash").Result(); n != 3 {
		t.Fatalf("planning deleted keys: %d of 3 left", n)
	}
	tally := Tally([]AuditRecord{{Outcome: OutcomeBroken, Results: []MasterResult{{Result: ResultDeleted}, {Result: ResultKept}},
		Audit: []MasterResult{{Result: ResultAppended}}}, {Outcome: OutcomeRefused}, {Outcome: OutcomeGone}})
	if tally != (BreakTally{Broken: 1, Deleted: 1, Problems: 1, Audited: 1}) {
		t.Fatalf("tally %+v", tally)
	}
}
