package testenv

import (
	"fmt"
	"testing"

	"github.com/osctl/osctl/pkg/redisproc"
)

// Open returns what open makes of cfg, failing the test at once on its error, and closes it with
// close when the test ends: testenv.Open(t, redisconn.Connect, cfg, redisconn.Close) is osctl's
// Redis clients for cfg. (testenv cannot import redisconn: redisconn's own tests import testenv.)
func Open[C, T any](t testing.TB, open func(C) (T, error), cfg C, close func(T)) T {
	t.Helper()
	v, err := open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { close(v) })
	return v
}

// StartRedisTLS starts one server that also listens with TLS (tlsf's certificate) on a free
// port, as a managed Redis does; the plain port stays the harness's own control channel.
func StartRedisTLS(t testing.TB, tlsf TLSFiles, opts ...func(*redisproc.Options)) RedisNode {
	t.Helper()
	return startServer(t, TopologyOptions{TLS: &tlsf}, opts...)
}

// TLSURL is the rediss:// URL of the node's TLS address as user with password.
func (n RedisNode) TLSURL(user, password string) string {
	return fmt.Sprintf("rediss://%s:%s@%s", user, password, n.TLSAddr())
}
