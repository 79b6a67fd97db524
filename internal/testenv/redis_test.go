package testenv

import (
	"context"
	"testing"
)

func TestRedisMastersKillAndRestart(t *testing.T) {
	ctx := context.Background()
	rs := StartRedisMasters(t, 3, WithPassword("s3cret"))
	cs := Clients(rs)
	for i, c := range cs {
		if err := c.Set(ctx, "k", i, 0).Err(); err != nil {
			t.Fatalf("master %d: %v", i, err)
		}
	}
	rs[1].Kill()
	if rs[1].Alive() {
		t.Fatal("killed server still alive")
	}
	if err := cs[1].Ping(ctx).Err(); err == nil {
		t.Fatal("ping to a killed server succeeded")
	}
	if err := cs[0].Ping(ctx).Err(); err != nil {
		t.Fatalf("other master affected: %v", err)
	}
	rs[1].Restart()
	if err := cs[1].Ping(ctx).Err(); err != nil {
		t.Fatalf("after restart: %v", err)
	}
	if n, _ := cs[1].Exists(ctx, "k").Result(); n != 0 {
		t.Fatalf("restarted master without persistence kept key")
	}
}
