package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/lock"
)

// The Resque queues and job classes of OpenStudio Server (app/jobs/resque_jobs/*.rb) that the
// sandbox uses. Web pods run `resque:work` with QUEUES=analysis_wrappers; DeleteAnalysis is on
// the background queue, which the web-background pod takes in the real deployment and every
// sandbox replica's worker takes here (the sandbox has no web-background pod).
const (
	queueAnalysisWrappers = "analysis_wrappers"
	queueBackground       = "background"
	classInitialize       = "ResqueJobs::InitializeAnalysis"
	classDeleteAnalysis   = "ResqueJobs::DeleteAnalysis"
)

// workerQueues are the queues a replica's worker polls, in Resque's order.
var workerQueues = []string{queueAnalysisWrappers, queueBackground}

// resque speaks Resque's Redis protocol under a per-sandbox prefix, so that two sandboxes can
// share one Redis: the real keys are resque:queue:<name>, resque:queues and resque:failed.
type resque struct {
	rdb    redis.UniversalClient
	prefix string // osctl:sandbox:<namespace>:resque:
}

func newResque(cfg Config) resque {
	return resque{rdb: cfg.Masters[0], prefix: lock.NamespacePrefix + "sandbox:" + cfg.Namespace + ":resque:"}
}

func (q resque) queueKey(name string) string  { return q.prefix + "queue:" + name }
func (q resque) queuesKey() string            { return q.prefix + "queues" }
func (q resque) failedKey() string            { return q.prefix + "failed" }
func (q resque) workersKey() string           { return q.prefix + "workers" }
func (q resque) workerKey(name string) string { return q.prefix + "worker:" + name }

// resquePayload is a job as Resque.push stores it.
type resquePayload struct {
	Class string `json:"class"`
	Args  []any  `json:"args"`
}

// enqueue is Resque.enqueue: the queue is registered in the queues set and the job pushed on
// the right of its list.
func (q resque) enqueue(ctx context.Context, queue, class string, args ...any) error {
	b, err := json.Marshal(resquePayload{Class: class, Args: args})
	if err != nil {
		return err
	}
	_, err = q.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.SAdd(ctx, q.queuesKey(), queue)
		p.RPush(ctx, q.queueKey(queue), b)
		return nil
	})
	if err != nil {
		return fmt.Errorf("Resque.enqueue(%s) on %s: %v", class, queue, err)
	}
	return nil
}

// reserve pops one job from the first non-empty queue (LPOP, as Resque's reserve does); raw is
// empty when every queue is empty.
func (q resque) reserve(ctx context.Context, queues []string) (queue, raw string, err error) {
	for _, name := range queues {
		v, err := q.rdb.LPop(ctx, q.queueKey(name)).Result()
		if errors.Is(err, redis.Nil) {
			continue
		}
		if err != nil {
			return "", "", err
		}
		return name, v, nil
	}
	return "", "", nil
}

// pending is how many jobs wait in the queues.
func (q resque) pending(ctx context.Context, queues []string) (int64, error) {
	var n int64
	for _, name := range queues {
		l, err := q.rdb.LLen(ctx, q.queueKey(name)).Result()
		if err != nil {
			return 0, err
		}
		n += l
	}
	return n, nil
}

// fail records a failed job in the failed list, as Resque's Redis failure backend does.
func (q resque) fail(ctx context.Context, queue, raw, workerName, runAt string, jobErr error) error {
	return q.failAs(ctx, queue, raw, workerName, runAt, "RuntimeError", jobErr)
}

// failAs is fail with the exception's class name.
// runAt is when the worker began the job (Resque keeps it in resque:worker:<name>; the sandbox
// adds it to the failure, so that a stress run can tell which writes overlapped the job).
func (q resque) failAs(ctx context.Context, queue, raw, workerName, runAt, exception string, jobErr error) error {
	var payload any = raw
	var p resquePayload
	if json.Unmarshal([]byte(raw), &p) == nil {
		payload = p
	}
	b, err := json.Marshal(map[string]any{
		"failed_at": time.Now().UTC().Format("2006/01/02 15:04:05 UTC"), "payload": payload,
		"run_at": runAt, "exception": exception, "error": jobErr.Error(), "backtrace": []string{}, "worker": workerName, "queue": queue,
	})
	if err != nil {
		return err
	}
	return q.rdb.RPush(ctx, q.failedKey(), b).Err()
}

// workerName is how Resque names a worker: host:pid:queues.
func workerName(queues []string) string {
	h, _ := os.Hostname()
	name := fmt.Sprintf("%s:%d:", h, os.Getpid())
	for i, q := range queues {
		if i > 0 {
			name += ","
		}
		name += q
	}
	return name
}
