// Package testenv starts the real services osctl's tests talk to (redis-server processes, and
// further harnesses beside this file) on free loopback ports, and stops them when a test ends.
package testenv

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/redisproc"
)

// InCI reports whether the tests run in CI, where a missing dependency fails instead of skipping.
func InCI() bool { return os.Getenv("CI") != "" }

// Require fails the test in CI and skips it loudly elsewhere when a dependency is missing.
func Require(t testing.TB, ok bool, what string) {
	t.Helper()
	if ok {
		return
	}
	if InCI() {
		t.Fatalf("MISSING DEPENDENCY in CI: %s", what)
	}
	t.Skipf("SKIPPED, MISSING DEPENDENCY: %s", what)
}

// Redis is one redis-server process owned by a test.
type Redis struct {
	*redisproc.Server
	t testing.TB
}

// StartRedis starts one redis-server on a free loopback port; it is killed when the test ends.
func StartRedis(t testing.TB, opts ...func(*redisproc.Options)) *Redis {
	t.Helper()
	_, err := redisproc.Path()
	Require(t, err == nil, "redis-server ("+redisproc.InstallHint+")")
	o := redisproc.Options{Dir: t.TempDir()}
	for _, f := range opts {
		f(&o)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := redisproc.Start(ctx, o)
	if err != nil {
		t.Fatalf("start redis-server: %v", err)
	}
	t.Cleanup(s.Kill)
	return &Redis{Server: s, t: t}
}

// StartRedisMasters starts n independent masters (for quorum tests).
func StartRedisMasters(t testing.TB, n int, opts ...func(*redisproc.Options)) []*Redis {
	t.Helper()
	out := make([]*Redis, n)
	for i := range out {
		out[i] = StartRedis(t, opts...)
	}
	return out
}

// WithPassword makes the server require a password.
func WithPassword(pw string) func(*redisproc.Options) {
	return func(o *redisproc.Options) { o.Password = pw }
}

// WithArgs passes extra redis-server arguments.
func WithArgs(args ...string) func(*redisproc.Options) {
	return func(o *redisproc.Options) { o.Args = append(o.Args, args...) }
}

// Client returns a go-redis client for the server, closed when the test ends.
func (r *Redis) Client() *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: r.Addr, Password: passwordOf(r)})
	r.t.Cleanup(func() { _ = c.Close() })
	return c
}

// Restart starts the server again on the same port (after Kill or Stop).
func (r *Redis) Restart() {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := r.Server.Restart(ctx); err != nil {
		r.t.Fatalf("restart redis-server: %v", err)
	}
	r.t.Cleanup(r.Server.Kill)
}

// URLs returns the redis:// URLs of servers.
func URLs(rs []*Redis) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.URL()
	}
	return out
}

// Clients returns one client per server.
func Clients(rs []*Redis) []redis.UniversalClient {
	out := make([]redis.UniversalClient, len(rs))
	for i, r := range rs {
		out[i] = r.Client()
	}
	return out
}

func passwordOf(r *Redis) string {
	o, err := redis.ParseURL(r.URL())
	if err != nil {
		return ""
	}
	return o.Password
}
