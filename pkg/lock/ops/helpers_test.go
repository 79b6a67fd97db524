package ops

import (
	"context"
	"testing"

	"github.com/go-redsync/redsync/v4"
	redsyncredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/redisconn"
)

// startMasters starts n real redis-server processes and returns them with their Masters.
func startMasters(t testing.TB, n int) ([]*testenv.Redis, []redisconn.Master) {
	t.Helper()
	rs := testenv.StartRedisMasters(t, n)
	conns := testenv.Open(t, redisconn.Connect, redisconn.Config{URLs: testenv.URLs(rs)}, redisconn.Close)
	ms := make([]redisconn.Master, n)
	for i, c := range conns {
		ms[i] = redisconn.Master{Name: c.Name, Client: c.Client}
	}
	return rs, ms
}

// inspectAll runs Inspect and returns the views by key.
func inspectAll(t *testing.T, ms []redisconn.Master, o Options) (map[string]View, Summary) {
	t.Helper()
	got := map[string]View{}
	sum, err := Inspect(context.Background(), ms, o, func(v View) error {
		if _, dup := got[v.Key]; dup {
			t.Errorf("key %q emitted twice", v.Key)
		}
		got[v.Key] = v
		return nil
	})
	if err != nil {
		t.Fatalf("Inspect: %v", err)
	}
	return got, sum
}

// redsyncLock takes a lock with redsync itself over the masters.
func redsyncLock(t *testing.T, ms []redisconn.Master, key string, opts ...redsync.Option) *redsync.Mutex {
	t.Helper()
	pools := make([]redsyncredis.Pool, len(ms))
	for i, m := range ms {
		pools[i] = goredis.NewPool(m.Client)
	}
	mu := redsync.New(pools...).NewMutex(key, opts...)
	if err := mu.Lock(); err != nil {
		t.Fatalf("redsync lock %s: %v", key, err)
	}
	return mu
}

// redlockRbScript is redlock-rb's lock script: SET PX when the key is free or already ours.
var redlockRbScript = redis.NewScript(`
if (redis.call("exists", KEYS[1]) == 0) or redis.call("get", KEYS[1]) == ARGV[1] then
  return redis.call("set", KEYS[1], ARGV[1], "PX", ARGV[2])
end`)

// redlockRbLock locks key on every master the way redlock-rb does (a UUID value) and returns
// the value.
func redlockRbLock(t *testing.T, ms []redisconn.Master, key string, ttlMs int) string {
	t.Helper()
	v := uuid.NewString()
	for _, m := range ms {
		if err := redlockRbScript.Run(context.Background(), m.Client, []string{key}, v, ttlMs).Err(); err != nil {
			t.Fatalf("redlock-rb lock on %s: %v", m.Name, err)
		}
	}
	return v
}
