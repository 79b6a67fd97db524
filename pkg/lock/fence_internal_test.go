package lock

import (
	"context"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
)

// TestFenceRecoversFromStaleRead: the counter read alongside the acquisition can be stale when
// another holder took a token meanwhile; the set-if-greater write then fails and is retried
// above every counter reported, and the token is still larger than every earlier one.
func TestFenceRecoversFromStaleRead(t *testing.T) {
	ctx := context.Background()
	rs := testenv.StartRedisMasters(t, 3)
	cs := testenv.Clients(rs)
	l, err := New(cs)
	if err != nil {
		t.Fatal(err)
	}
	key := "redlock:stale:read"
	for _, c := range cs {
		c.Set(ctx, FenceKey(key), 7, 0)
	}
	tok, err := l.fence(ctx, key, fenceRead{highest: 3})
	if err != nil || tok != 8 {
		t.Fatalf("fence after a stale read = %d, %v; want 8", tok, err)
	}
	at8 := 0
	for _, c := range cs {
		if v, _ := c.Get(ctx, FenceKey(key)).Int64(); v == 8 {
			at8++
		}
	}
	if at8 < Quorum(len(cs)) {
		t.Fatalf("counter raised to 8 on %d masters, want a quorum", at8)
	}
	// A failed read is done again under the lock.
	tok, err = l.fence(ctx, key, fenceRead{err: errNoAnswer})
	if err != nil || tok != 9 {
		t.Fatalf("fence after a failed read = %d, %v; want 9", tok, err)
	}
	// A counter that is not an integer is an error, not a token.
	for _, c := range cs {
		c.Set(ctx, FenceKey(key), "garbage", 0)
	}
	if tok, err := l.fence(ctx, key, fenceRead{err: errNoAnswer}); err == nil {
		t.Fatalf("fence over a corrupt counter gave token %d", tok)
	}
}
