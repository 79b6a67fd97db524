package sandbox

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/lock"
)

// jobRecordTTL bounds how long a shared job record stays in Redis.
const jobRecordTTL = 24 * time.Hour

// sharedQueue keeps job records and the queue in Redis (on the first master) and admits jobs
// through a pkg/lock Semaphore over every master, so that the ceiling holds across replicas and
// any replica answers for any job. Every replica runs a dispatcher that claims queued jobs with
// an atomic LPOP once it holds a permit.
type sharedQueue struct {
	cfg    Config
	now    func() time.Time
	rdb    redis.UniversalClient
	sem    *lock.Semaphore
	prefix string // osctl:sandbox:<namespace>:
}

func newSharedQueue(cfg Config, now func() time.Time) (*sharedQueue, error) {
	opts := []lock.Option{}
	if cfg.Host != "" {
		opts = append(opts, lock.WithHost(cfg.Host))
	}
	sem, err := lock.NewSemaphore(cfg.Masters, "sandbox:"+cfg.Namespace+":jobs", cfg.MaxActive, opts...)
	if err != nil {
		return nil, err
	}
	return &sharedQueue{cfg: cfg, now: now, rdb: cfg.Masters[0], sem: sem, prefix: lock.NamespacePrefix + "sandbox:" + cfg.Namespace + ":"}, nil
}

func (q *sharedQueue) jobKey(id string) string { return q.prefix + "job:" + id }
func (q *sharedQueue) queueKey() string        { return q.prefix + "queue" }
func (q *sharedQueue) indexKey() string        { return q.prefix + "jobs" }
func (q *sharedQueue) stamp() string           { return q.now().UTC().Format(time.RFC3339Nano) }

// setState moves a job to a new state unless it is already final: ARGV[1] is the new state, the
// rest are field/value pairs. It returns "ok", the final state it found, or nil (no such job).
var setState = redis.NewScript(`
local s = redis.call('HGET', KEYS[1], 'status')
if not s then return false end
if s == 'completed' or s == 'failed' or s == 'cancelled' then return s end
redis.call('HSET', KEYS[1], 'status', ARGV[1], unpack(ARGV, 2))
return 'ok'
`)

// cancelJob cancels a job unless it is final and takes it off the queue.
var cancelJob = redis.NewScript(`
local s = redis.call('HGET', KEYS[1], 'status')
if not s then return false end
if s == 'completed' or s == 'failed' or s == 'cancelled' then return s end
redis.call('HSET', KEYS[1], 'status', 'cancelled', 'updated_at', ARGV[2], 'finished_at', ARGV[2])
redis.call('LREM', KEYS[2], 0, ARGV[1])
return 'ok'
`)

func (q *sharedQueue) submit(ctx context.Context, program string) (Job, error) {
	id := newUUID()
	now := q.stamp()
	_, err := q.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, q.jobKey(id), "job_id", id, "status", JobQueued, "created_at", now, "updated_at", now, "program", program)
		p.Expire(ctx, q.jobKey(id), jobRecordTTL)
		p.ZAdd(ctx, q.indexKey(), redis.Z{Score: float64(q.now().UnixNano()), Member: id})
		p.Expire(ctx, q.indexKey(), jobRecordTTL)
		p.RPush(ctx, q.queueKey(), id)
		return nil
	})
	if err != nil {
		return Job{}, fmt.Errorf("queueing the job in Redis: %v", err)
	}
	return q.get(ctx, id)
}

func (q *sharedQueue) get(ctx context.Context, id string) (Job, error) {
	h, err := q.rdb.HGetAll(ctx, q.jobKey(id)).Result()
	if err != nil {
		return Job{}, err
	}
	if len(h) == 0 {
		return Job{}, errNoJob
	}
	j := jobFromHash(h)
	if j.Status == JobQueued {
		pos, err := q.rdb.LPos(ctx, q.queueKey(), id, redis.LPosArgs{}).Result()
		if err == nil {
			p := int(pos) + 1
			j.QueuePosition = &p
		}
	}
	return j, nil
}

func jobFromHash(h map[string]string) Job {
	j := Job{JobID: h["job_id"], Status: h["status"], CreatedAt: h["created_at"], UpdatedAt: h["updated_at"],
		StartedAt: h["started_at"], FinishedAt: h["finished_at"], Program: h["program"], Error: h["error"]}
	j.StatusURL = statusURL(j.JobID)
	if r, err := strconv.Atoi(h["replica"]); err == nil {
		j.Replica = &r
	}
	return j
}

func (q *sharedQueue) list(ctx context.Context) ([]Job, error) {
	ids, err := q.rdb.ZRange(ctx, q.indexKey(), 0, -1).Result()
	if err != nil {
		return nil, err
	}
	// One MULTI for every record: a consistent snapshot, so that a job completing and the next
	// one starting are never both seen active.
	cmds := make([]*redis.MapStringStringCmd, len(ids))
	_, err = q.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = p.HGetAll(ctx, q.jobKey(id))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Job, 0, len(ids))
	for _, c := range cmds {
		if h := c.Val(); len(h) > 0 {
			out = append(out, jobFromHash(h))
		}
	}
	return out, nil
}

func (q *sharedQueue) cancel(ctx context.Context, id string) (Job, error) {
	res, err := cancelJob.Run(ctx, q.rdb, []string{q.jobKey(id), q.queueKey()}, id, q.stamp()).Result()
	if errors.Is(err, redis.Nil) {
		return Job{}, errNoJob
	}
	if err != nil {
		return Job{}, err
	}
	j, gerr := q.get(ctx, id)
	if gerr != nil {
		return Job{}, gerr
	}
	if res != "ok" {
		return j, errJobDone
	}
	return j, nil
}

// transition sets a job's state; ok is false when the job is already final (cancelled).
func (q *sharedQueue) transition(ctx context.Context, id, state string, fields ...any) (bool, error) {
	args := append([]any{state, "updated_at", q.stamp()}, fields...)
	res, err := setState.Run(ctx, q.rdb, []string{q.jobKey(id)}, args...).Result()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return res == "ok", nil
}

// pollEvery is how often an idle dispatcher looks at the shared queue.
const pollEvery = 25 * time.Millisecond

func (q *sharedQueue) run(ctx context.Context) {
	for ctx.Err() == nil {
		if !q.claimOne(ctx) {
			_ = sleepCtx(ctx, pollEvery)
		}
	}
}

// claimOne takes a permit and a queued job and starts it; false when there was nothing to do.
func (q *sharedQueue) claimOne(ctx context.Context) bool {
	n, err := q.rdb.LLen(ctx, q.queueKey()).Result()
	if err != nil || n == 0 {
		return false
	}
	permit, err := q.sem.TryAcquire(ctx)
	if err != nil {
		if !errors.Is(err, lock.ErrNoPermit) && ctx.Err() == nil {
			q.cfg.Logf("job dispatcher: taking a permit: %v", err)
		}
		return false
	}
	release := func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		defer cancel()
		_ = permit.Release(rctx)
	}
	id, err := q.rdb.LPop(ctx, q.queueKey()).Result()
	if err != nil {
		release()
		return false
	}
	now := q.stamp()
	ok, err := q.transition(ctx, id, JobDispatching, "started_at", now, "replica", q.cfg.Replica)
	if err != nil || !ok {
		release()
		return true
	}
	go func() {
		defer release()
		q.execute(ctx, permit, id)
	}()
	return true
}

// execute walks a claimed job through its states under its permit; when the permit is lost the
// job fails rather than run past the ceiling.
func (q *sharedQueue) execute(ctx context.Context, permit *lock.Permit, id string) {
	pctx := permit.Context()
	for _, ph := range jobPhases(q.cfg.replicaJobDuration()) {
		ok, err := q.transition(pctx, id, ph.state)
		if err != nil || !ok {
			break
		}
		if err := sleepCtx(pctx, ph.d); err != nil {
			break
		}
		if ph.state == JobRunning {
			if _, err := q.transition(pctx, id, JobCompleted, "finished_at", q.stamp()); err == nil {
				return
			}
		}
	}
	if perr := permit.Err(); perr != nil && ctx.Err() == nil {
		q.cfg.Logf("job %s: admission permit lost (%v): marking it failed", id, perr)
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		defer cancel()
		_, _ = q.transition(fctx, id, JobFailed, "finished_at", q.stamp(), "error", "admission permit lost: "+perr.Error())
	}
}
