package redisconn

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/redisproc"
)

// TestTLSWithCA connects to a real redis-server over TLS: verified with --redis-ca, refused
// with a one-line hint without it.
func TestTLSWithCA(t *testing.T) {
	tlsf := testenv.NewTLS(t)
	port, err := redisproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	testenv.StartRedis(t, testenv.WithArgs(tlsf.ServerArgs(port)...), testenv.WithPassword(pw))
	url := "rediss://:" + pw + "@127.0.0.1:" + strconv.Itoa(port)
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
	if err == nil || !strings.Contains(err.Error(), "--redis-ca") || strings.Contains(err.Error(), pw) {
		t.Errorf("without --redis-ca: %v", err)
	}
	if _, err := Connect(Config{URLs: []string{"redis://127.0.0.1:1"}, CAFile: tlsf.CA}); err == nil || !strings.Contains(err.Error(), "not rediss://") {
		t.Errorf("--redis-ca with redis://: %v", err)
	}
}
