package redisproc_test

import (
	"context"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/redisproc"
)

// TestConfigThroughStdin starts a server with a password full of quotes, spaces and backslashes
// (its configuration goes through stdin) and an extra argument: the password is required of
// clients and the argument is applied.
func TestConfigThroughStdin(t *testing.T) {
	const pw = `s3cr"et pa\ss 'x'`
	s, err := redisproc.Start(context.Background(), redisproc.Options{Dir: t.TempDir(), Password: pw, Args: []string{"--maxmemory", "64mb"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	ok := redis.NewClient(&redis.Options{Addr: s.Addr, Password: pw})
	defer ok.Close()
	if err := ok.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("PING with the password: %v", err)
	}
	if got := ok.ConfigGet(context.Background(), "maxmemory").Val()["maxmemory"]; got != "67108864" {
		t.Fatalf("extra argument --maxmemory 64mb not applied: %q", got)
	}
	anon := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1})
	defer anon.Close()
	if err := anon.Ping(context.Background()).Err(); err == nil || !strings.Contains(err.Error(), "NOAUTH") {
		t.Fatalf("PING without the password: %v, want NOAUTH", err)
	}
}
