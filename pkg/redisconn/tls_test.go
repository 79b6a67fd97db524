package redisconn

import (
	"context"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
)

// TestTLSWithCA connects to a real redis-server over TLS: verified with --redis-ca, refused
// with a one-line hint without it.
func TestTLSWithCA(t *testing.T) {
	tlsf := testenv.NewTLS(t)
	r := testenv.StartRedisTLS(t, tlsf, testenv.WithPassword(pw))
	url := r.TLSURL("", pw)
	ctx := context.Background()

	ms, err := Connect(Config{URLs: []string{url}, CAFile: tlsf.CA})
	if err != nil {
		t.Fatal(err)
	}
	if err := Ping(ctx, ms[0]); err != nil {
		t.Errorf("with --redis-ca: %v", err)
	}
	Close(ms)

	ms, err = Connect(Config{URLs: []string{url}})
	if err != nil {
		t.Fatal(err)
	}
	err = Ping(ctx, ms[0])
	Close(ms)
	if err == nil || !strings.Contains(err.Error(), "{Redis.CAFile}") || strings.Contains(err.Error(), pw) {
		t.Errorf("without --redis-ca: %v", err)
	}
	if _, err := Connect(Config{URLs: []string{"redis://127.0.0.1:1"}, CAFile: tlsf.CA}); err == nil || !strings.Contains(err.Error(), "not rediss://") {
		t.Errorf("--redis-ca with redis://: %v", err)
	}
}
