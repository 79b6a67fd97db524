package lock

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestRoundCollectsDecidesAndTimesOut checks the parallel round on its own (pure logic: the
// calls ignore their client).
func TestRoundCollectsDecidesAndTimesOut(t *testing.T) {
	masters := make([]redis.UniversalClient, 3)
	ctx := context.Background()

	// Every answer is collected when nothing decides early, including the last one, whose call
	// also ends the shared context.
	for range 200 {
		rs := round(ctx, masters, time.Minute, func(context.Context, redis.UniversalClient) (int, error) { return 1, nil }, nil)
		if answered(rs) != 3 {
			t.Fatalf("answered %d of 3: %+v", answered(rs), rs)
		}
	}

	// Decided at the first quorum; the slow master still gets its call, which is not cancelled.
	var finished atomic.Int32
	release := make(chan struct{})
	straggler := make(chan error, 1)
	rs := round(ctx, masters, time.Minute, func(ctx context.Context, c redis.UniversalClient) (int, error) {
		if finished.Add(1) == 3 {
			<-release
			straggler <- ctx.Err()
		}
		return 1, nil
	}, func(rs []reply[int]) bool { return answered(rs) >= 2 })
	if answered(rs) != 2 {
		t.Fatalf("decided round: answered %d, want 2", answered(rs))
	}
	close(release)
	if err := <-straggler; err != nil {
		t.Fatalf("the straggler's call was cancelled when the round was decided: %v", err)
	}

	// A master that never answers within the timeout is marked errNoAnswer.
	block := make(chan struct{})
	defer close(block)
	var calls atomic.Int32
	rs = round(ctx, masters, 100*time.Millisecond, func(ctx context.Context, _ redis.UniversalClient) (int, error) {
		if calls.Add(1) == 1 {
			<-block
		}
		return 1, nil
	}, nil)
	if answered(rs) != 2 {
		t.Fatalf("timed-out round: answered %d, want 2", answered(rs))
	}
	missing := 0
	for _, r := range rs {
		if errors.Is(r.err, errNoAnswer) {
			missing++
		}
	}
	if missing != 1 {
		t.Fatalf("want one errNoAnswer, got %+v", rs)
	}
}

// TestSemaphoreHeldCount checks the count of permits that may be held (pure logic).
func TestSemaphoreHeldCount(t *testing.T) {
	s := &Semaphore{masters: make([]redis.UniversalClient, 3), quorum: 2, name: "t"}
	ok := func(ids ...string) reply[[]string] { return reply[[]string]{val: ids} }
	down := reply[[]string]{err: errNoAnswer}
	cases := []struct {
		name  string
		reads []reply[[]string]
		want  int
	}{
		{"all answered: an entry on one master is not held", []reply[[]string]{ok("a", "b", "c"), ok("a", "b"), ok("a")}, 2},
		{"one master silent: any entry seen may be held", []reply[[]string]{ok("a", "c"), ok("a"), down}, 2},
		{"empty", []reply[[]string]{ok(), ok(), ok()}, 0},
	}
	for _, c := range cases {
		got, err := s.held(c.reads)
		if err != nil || got != c.want {
			t.Errorf("%s: held = %d, %v; want %d", c.name, got, err, c.want)
		}
	}
	if _, err := s.held([]reply[[]string]{ok("a"), down, down}); err == nil {
		t.Error("a count from one of three masters was accepted")
	}
}
