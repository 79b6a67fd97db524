package sandbox

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/lock"
)

// jobRecordTTL bounds how long a shared job record stays in Redis.
const jobRecordTTL = 24 * time.Hour

// sharedStore is the fixed service: one job store, one queue and one ceiling for every replica,
// in Redis (on the first master). Every change is one Lua script, so that a claim counts the
// active jobs of all replicas and takes the head of the one queue atomically.
type sharedStore struct {
	rdb    redis.UniversalClient
	prefix string // osctl:sandbox:<namespace>:
}

func newSharedStore(cfg Config) *sharedStore {
	return &sharedStore{rdb: cfg.Masters[0], prefix: lock.NamespacePrefix + "sandbox:" + cfg.Namespace + ":"}
}

func (s *sharedStore) jobKey(id string) string { return s.prefix + "job:" + id }
func (s *sharedStore) queueKey() string        { return s.prefix + "queue" }
func (s *sharedStore) activeKey() string       { return s.prefix + "active" }
func (s *sharedStore) indexKey() string        { return s.prefix + "jobs" }
func (s *sharedStore) createdKey() string      { return s.prefix + "created" }

// createJob: KEYS job, index, queue, created; ARGV id, seq, requeueEvery, phase, ttl, fields...
var createJob = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return {'old', redis.call('HGETALL', KEYS[1])} end
local n = redis.call('INCR', KEYS[4])
redis.call('HSET', KEYS[1], unpack(ARGV, 6))
local every = tonumber(ARGV[3])
if every > 0 and n % every == 0 then redis.call('HSET', KEYS[1], 'requeue', ARGV[4]) end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
for i = 1, 4 do redis.call('EXPIRE', KEYS[i], ARGV[5]) end
return {'new', redis.call('HGETALL', KEYS[1])}
`)

// claimJob: KEYS queue, active; ARGV limit, job key prefix, fields... The best queued job is the
// one of highest priority, the oldest among equals (the queue is ordered by creation).
var claimJob = redis.NewScript(`
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[1]) then return false end
local best, bp = nil, -1
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local p = redis.call('HGET', ARGV[2] .. id, 'priority')
  if not p then
    redis.call('ZREM', KEYS[1], id)
  elseif tonumber(p) > bp then
    best, bp = id, tonumber(p)
  end
end
if not best then return false end
local k = ARGV[2] .. best
local started = redis.call('HGET', k, 'started_at')
redis.call('ZREM', KEYS[1], best)
redis.call('HSET', k, unpack(ARGV, 3))
if started and started ~= '' then redis.call('HSET', k, 'started_at', started) end
redis.call('HSET', k, 'status', 'dispatching')
redis.call('SADD', KEYS[2], best)
return redis.call('HGETALL', k)
`)

// updateJob: KEYS job, queue, active; ARGV id, allowed states ("" any, else comma-separated),
// fields...
var updateJob = redis.NewScript(`
local s = redis.call('HGET', KEYS[1], 'status')
if not s then return 0 end
if ARGV[2] ~= '' then
  local ok = false
  for f in string.gmatch(ARGV[2], '[^,]+') do if f == s then ok = true end end
  if not ok then return 0 end
end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
local n = redis.call('HGET', KEYS[1], 'status')
if n == 'queued' then
  redis.call('ZADD', KEYS[2], redis.call('HGET', KEYS[1], 'seq'), ARGV[1])
else
  redis.call('ZREM', KEYS[2], ARGV[1])
end
if n == 'dispatching' or n == 'submitting' or n == 'running' then
  redis.call('SADD', KEYS[3], ARGV[1])
else
  redis.call('SREM', KEYS[3], ARGV[1])
end
return 1
`)

// removeJob: KEYS job, queue, active, index; ARGV id.
var removeJob = redis.NewScript(`
local h = redis.call('HGETALL', KEYS[1])
if #h == 0 then return false end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('SREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
return h
`)

func pairs(m map[string]string) []any {
	out := make([]any, 0, 2*len(m))
	for k, v := range m {
		out = append(out, k, v)
	}
	return out
}

// jobFromReply decodes a job from an HGETALL array reply (from a script).
func jobFromReply(v any) (*job, error) {
	arr, ok := v.([]any)
	if !ok || len(arr)%2 != 0 {
		return nil, fmt.Errorf("unexpected reply %T from Redis", v)
	}
	h := make(map[string]string, len(arr)/2)
	for i := 0; i < len(arr); i += 2 {
		k, _ := arr[i].(string)
		val, _ := arr[i+1].(string)
		h[k] = val
	}
	return decodeJob(h), nil
}

func (s *sharedStore) create(ctx context.Context, j *job, requeueEvery int, phase string) (*job, bool, error) {
	h := j.encode()
	args := append([]any{j.ID, h[fSeq], requeueEvery, phase, int(jobRecordTTL / time.Second)}, pairs(h)...)
	res, err := createJob.Run(ctx, s.rdb, []string{s.jobKey(j.ID), s.indexKey(), s.queueKey(), s.createdKey()}, args...).Result()
	if err != nil {
		return nil, false, err
	}
	arr, ok := res.([]any)
	if !ok || len(arr) != 2 {
		return nil, false, fmt.Errorf("unexpected reply %v from Redis", res)
	}
	rec, err := jobFromReply(arr[1])
	return rec, arr[0] == "new", err
}

func (s *sharedStore) get(ctx context.Context, id string) (*job, error) {
	h, err := s.rdb.HGetAll(ctx, s.jobKey(id)).Result()
	if err != nil {
		return nil, err
	}
	if len(h) == 0 {
		return nil, errNoJob
	}
	return decodeJob(h), nil
}

func (s *sharedStore) list(ctx context.Context) ([]*job, error) {
	ids, err := s.rdb.ZRange(ctx, s.indexKey(), 0, -1).Result()
	if err != nil {
		return nil, err
	}
	return s.records(ctx, ids)
}

// records reads the jobs ids in one MULTI: a consistent snapshot, so that a job completing and
// the next one starting are never both seen active.
func (s *sharedStore) records(ctx context.Context, ids []string) ([]*job, error) {
	cmds := make([]*redis.MapStringStringCmd, len(ids))
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = p.HGetAll(ctx, s.jobKey(id))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]*job, 0, len(ids))
	for _, c := range cmds {
		if h := c.Val(); len(h) > 0 {
			out = append(out, decodeJob(h))
		}
	}
	return out, nil
}

func (s *sharedStore) queue(ctx context.Context) ([]string, error) {
	ids, err := s.rdb.ZRange(ctx, s.queueKey(), 0, -1).Result()
	if err != nil {
		return nil, err
	}
	recs, err := s.records(ctx, ids)
	if err != nil {
		return nil, err
	}
	sortQueue(recs)
	out := make([]string, 0, len(recs))
	for _, j := range recs {
		if j.Status == JobQueued {
			out = append(out, j.ID)
		}
	}
	return out, nil
}

func (s *sharedStore) claim(ctx context.Context, limit int, set map[string]string) (*job, error) {
	args := append([]any{limit, s.prefix + "job:"}, pairs(set)...)
	res, err := claimJob.Run(ctx, s.rdb, []string{s.queueKey(), s.activeKey()}, args...).Result()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return jobFromReply(res)
}

func (s *sharedStore) update(ctx context.Context, id string, from []string, set map[string]string) (bool, error) {
	args := append([]any{id, strings.Join(from, ",")}, pairs(set)...)
	n, err := updateJob.Run(ctx, s.rdb, []string{s.jobKey(id), s.queueKey(), s.activeKey()}, args...).Int()
	return n == 1, err
}

func (s *sharedStore) remove(ctx context.Context, id string) (*job, error) {
	res, err := removeJob.Run(ctx, s.rdb, []string{s.jobKey(id), s.queueKey(), s.activeKey(), s.indexKey()}, id).Result()
	if errors.Is(err, redis.Nil) {
		return nil, errNoJob
	}
	if err != nil {
		return nil, err
	}
	return jobFromReply(res)
}
